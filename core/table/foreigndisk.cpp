#include "table/foreigndisk.h"

#include "table/diskreader.h"

#include <QHash>

namespace partwise {

namespace {

// libparted's label names as people know them, with their article.
QString tableTypeName(const QString &type)
{
    static const QHash<QString, QString> names{
        {QStringLiteral("mac"), QStringLiteral("a Mac partition map")},
        {QStringLiteral("bsd"), QStringLiteral("a BSD disklabel")},
        {QStringLiteral("sun"), QStringLiteral("a Sun disk label")},
        {QStringLiteral("dvh"), QStringLiteral("an SGI disk volume header")},
        {QStringLiteral("amiga"), QStringLiteral("an Amiga rigid disk block")},
        {QStringLiteral("pc98"), QStringLiteral("a PC-98 partition table")},
        {QStringLiteral("atari"), QStringLiteral("an Atari partition table")},
        {QStringLiteral("aix"), QStringLiteral("an AIX partition table")},
    };
    return names.value(type, QStringLiteral("a \"%1\" partition table").arg(type));
}

QString hybridIsoRefusal(const DiskLayout &layout)
{
    const QString path = layout.device.path;
    return QStringLiteral(
               "%1 holds a hybrid ISO 9660 image (an installer or live ISO written whole to the "
               "disk): the partitions its %2 lists are windows into the ISO's own files, so "
               "moving, resizing, deleting or copying them one by one would break the ISO and "
               "its booting. Nothing was changed. Write the disk again from its ISO to change "
               "it, and copy it whole, byte for byte, with dd (dd if=%1 of=TARGET bs=4M "
               "conv=fsync). If the ISO is only a leftover under a newer table, erase its "
               "signature first (wipefs -a -t iso9660 %1).")
        .arg(path, layout.tableType == QLatin1String("msdos") ? QStringLiteral("MBR")
                                                              : layout.tableType.toUpper());
}

// sgdisk reads the good copy, rebuilds the other from it in memory, and -e (move the backup to
// the end of the disk) writes both; gdisk does the same on its verify and write.
QString damagedGptRefusal(const DiskLayout &layout)
{
    const QString path = layout.device.path;
    return QStringLiteral("The GPT of %1 is damaged: one of its two copies (the primary header "
                          "after the MBR, or the backup GPT header at the end of the disk) is "
                          "missing or damaged (libparted: \"%2\"). Partwise writes nothing to "
                          "it until it is repaired, so nothing was changed. Repair it with "
                          "`sgdisk -e %1` (it rebuilds the damaged copy from the good one and "
                          "writes both, the backup at the end of the disk), or in gdisk: v, "
                          "then w; then `sgdisk -v %1` should find no problems.")
        .arg(path, layout.damagedGpt);
}

} // namespace

QString foreignLabelRefusal(const QString &path, qint64 sectorSize)
{
    DiskReadOptions options;
    options.forcedSectorSize = sectorSize;
    options.probeFilesystems = false;
    options.useMeasurements = false;
    const DiskReadResult read = readDisk(path, options);
    if (!read.ok || read.layout.tableType.isEmpty() || isEditableTableType(read.layout.tableType))
        return QString();
    DiskLayout label = read.layout;
    label.wholeDiskFilesystem.clear();
    label.device.sectorSizeDoubt.clear();
    return foreignDiskRefusal(label);
}

bool isEditableTableType(const QString &tableType)
{
    return tableType == QLatin1String("gpt") || tableType == QLatin1String("msdos");
}

QString foreignDiskRefusal(const DiskLayout &layout)
{
    if (layout.isHybridIso())
        return hybridIsoRefusal(layout);
    if (!layout.damagedGpt.isEmpty())
        return damagedGptRefusal(layout);
    if (!layout.device.sectorSizeDoubt.isEmpty())
        return layout.device.sectorSizeDoubt;
    if (layout.tableType.isEmpty() || isEditableTableType(layout.tableType))
        return QString();
    return QStringLiteral("%1 has %2: Partwise reads it but edits, realigns and copies only "
                          "GPT and MBR tables, so nothing was changed. Edit it with parted, or "
                          "replace it with a new GPT or MBR table (which erases every partition "
                          "on it).")
        .arg(layout.device.path, tableTypeName(layout.tableType));
}

} // namespace partwise
