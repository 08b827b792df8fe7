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
    const auto tr = [](const char *text) {
        return QCoreApplication::translate("PartitionFlags", text);
    };
    if (flag == QLatin1String("boot"))
        return tr("Bootable (MBR active flag; on GPT the same as esp)");
    if (flag == QLatin1String("esp"))
        return tr("EFI system partition");
    if (flag == QLatin1String("bios_grub"))
        return tr("BIOS boot partition for GRUB on GPT");
    if (flag == QLatin1String("legacy_boot"))
        return tr("Bootable by legacy BIOS firmware");
    if (flag == QLatin1String("msftdata"))
        return tr("Microsoft basic data");
    if (flag == QLatin1String("msftres"))
        return tr("Microsoft reserved");
    if (flag == QLatin1String("hidden"))
        return tr("Hidden from operating systems that honour it");
    if (flag == QLatin1String("lvm"))
        return tr("LVM physical volume");
    if (flag == QLatin1String("raid"))
        return tr("Linux software RAID member");
    if (flag == QLatin1String("swap"))
        return tr("Linux swap");
    if (flag == QLatin1String("lba"))
        return tr("Use LBA addressing (DOS/Windows)");
    return QString();
}
