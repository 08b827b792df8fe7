#include "editing/partitionflags.h"

#include <QCoreApplication>

QStringList partitionFlagNames(const QString &tableType)
{
    if (tableType == QLatin1String("msdos"))
        return {QStringLiteral("boot"),   QStringLiteral("esp"),  QStringLiteral("lba"),
                QStringLiteral("hidden"), QStringLiteral("lvm"),  QStringLiteral("raid"),
                QStringLiteral("swap"),   QStringLiteral("diag"), QStringLiteral("prep"),
                QStringLiteral("palo"),   QStringLiteral("irst")};
    return {QStringLiteral("boot"),       QStringLiteral("esp"),
            QStringLiteral("bios_grub"),  QStringLiteral("legacy_boot"),
            QStringLiteral("msftdata"),   QStringLiteral("msftres"),
            QStringLiteral("hidden"),     QStringLiteral("diag"),
            QStringLiteral("lvm"),        QStringLiteral("raid"),
            QStringLiteral("swap"),       QStringLiteral("irst"),
            QStringLiteral("linux-home"), QStringLiteral("chromeos_kernel"),
            QStringLiteral("bls_boot")};
}

QString partitionFlagHint(const QString &flag)
{
    // QT_TRANSLATE_NOOP marks the texts for lupdate; translate() looks them up.
    const auto hint = [](const char *text) {
        return QCoreApplication::translate("PartitionFlags", text);
    };
    if (flag == QLatin1String("boot"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags",
                                      "Bootable (MBR active flag; on GPT the same as esp)"));
    if (flag == QLatin1String("esp"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "EFI system partition"));
    if (flag == QLatin1String("bios_grub"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "BIOS boot partition for GRUB on GPT"));
    if (flag == QLatin1String("legacy_boot"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "Bootable by legacy BIOS firmware"));
    if (flag == QLatin1String("msftdata"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "Microsoft basic data"));
    if (flag == QLatin1String("msftres"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags",
                                      "Microsoft reserved: room Windows keeps for itself"));
    if (flag == QLatin1String("hidden"))
        return hint(
            QT_TRANSLATE_NOOP("PartitionFlags", "Hidden from operating systems that honour it"));
    if (flag == QLatin1String("lvm"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "LVM physical volume"));
    if (flag == QLatin1String("raid"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "Linux software RAID member"));
    if (flag == QLatin1String("swap"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "Linux swap"));
    if (flag == QLatin1String("diag"))
        return hint(
            QT_TRANSLATE_NOOP("PartitionFlags", "A maker's recovery or diagnostics partition"));
    if (flag == QLatin1String("prep"))
        return hint(QT_TRANSLATE_NOOP(
            "PartitionFlags",
            "PowerPC PReP boot partition: the boot loader of IBM POWER machines"));
    if (flag == QLatin1String("palo"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags",
                                      "Boot partition of palo, the loader of HP PA-RISC machines"));
    if (flag == QLatin1String("irst"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags",
                                      "Intel Rapid Start: where the firmware keeps a hibernation"));
    if (flag == QLatin1String("linux-home"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags",
                                      "Linux /home, which systemd mounts without an fstab line"));
    if (flag == QLatin1String("chromeos_kernel"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "A ChromeOS kernel partition"));
    if (flag == QLatin1String("bls_boot"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags",
                                      "Extended boot partition (/boot) of the Boot Loader "
                                      "Specification"));
    if (flag == QLatin1String("lba"))
        return hint(QT_TRANSLATE_NOOP("PartitionFlags", "Use LBA addressing (DOS/Windows)"));
    return QString();
}
