#pragma once

#include "table/storagelayer.h"

#include <QString>
#include <QStringList>

namespace partwise {

// One partition, or one stretch of free space, as read from the partition table.
// Sectors are logical sectors of the disk; `endSector` is inclusive, as in sfdisk and parted.
struct PartitionInfo
{
    enum class Kind { Primary, Extended, Logical, Free };

    Kind kind = Kind::Primary;
    int number = 0; // 0 for free space
    qint64 startSector = 0;
    qint64 endSector = 0;
    QString devicePath; // partition node for block devices ("/dev/sdb1"); empty for images
    QString name;       // GPT partition name
    QStringList flags;  // libparted flag names: boot, esp, lvm, ...
    QString filesystem; // as libblkid names it: ext4, vfat, ntfs, swap, ...
    QString label;
    QString uuid;
    bool insideExtended = false; // free space between logical partitions
    // In use now, as the kernel's tables said when the disk was read (block devices only):
    // every folder it is mounted on, and whether it is an active swap.
    QStringList mountPoints;
    bool swapOn = false;
    bool inUse() const { return swapOn || !mountPoints.isEmpty(); }
    // LUKS or LVM inside, outermost first; filled by readLayers (core/layer), not by readDisk.
    StorageLayers layers;

    qint64 lengthSectors() const { return endSector - startSector + 1; }
    bool isFree() const { return kind == Kind::Free; }
    bool isContainer() const { return kind == Kind::Extended; }
};

QString partitionKindName(PartitionInfo::Kind kind); // "primary", "extended", "logical", "free"

} // namespace partwise
