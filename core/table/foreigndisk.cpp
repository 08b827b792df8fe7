#include "table/foreigndisk.h"

namespace partwise {

namespace {

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

} // namespace

QString foreignDiskRefusal(const DiskLayout &layout)
{
    if (layout.isHybridIso())
        return hybridIsoRefusal(layout);
    return QString();
}

} // namespace partwise
