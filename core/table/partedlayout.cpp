#include "table/partedlayout.h"

#include "device/filesystemprobe.h"

#include <parted/parted.h>

#include <optional>

namespace partwise {

namespace {

QStringList flagNames(PedPartition *part)
{
    QStringList out;
    for (PedPartitionFlag f = ped_partition_flag_next(PedPartitionFlag(0)); f;
         f = ped_partition_flag_next(f)) {
        if (ped_partition_is_flag_available(part, f) && ped_partition_get_flag(part, f))
            out << QString::fromLatin1(ped_partition_flag_get_name(f));
    }
    return out;
}

// libparted names a partition after the name it opened the disk by; a disk opened through its
// descriptor (/proc/self/fd/N) is named as the kernel names its partitions: "p" before the
// number after a name ending in a digit (loop0p1, nvme0n1p1), none otherwise (sda1).
QString nodeName(PedDisk *disk, PedPartition *part, const QString &diskName)
{
    if (diskName == QString::fromLocal8Bit(disk->dev->path)) {
        char *node = ped_partition_get_path(part);
        const QString name = QString::fromLocal8Bit(node);
        free(node);
        return name;
    }
    const bool digit = !diskName.isEmpty() && diskName.back().isDigit();
    return diskName + (digit ? QStringLiteral("p") : QString()) + QString::number(part->num);
}

PartitionInfo describe(PedDisk *disk, PedPartition *part, bool isImage, const QString &diskName)
{
    PartitionInfo p;
    p.startSector = part->geom.start;
    p.endSector = part->geom.end;
    if (part->type & PED_PARTITION_FREESPACE) {
        p.kind = PartitionInfo::Kind::Free;
        p.insideExtended = part->type & PED_PARTITION_LOGICAL;
        return p;
    }
    p.number = part->num;
    if (part->type & PED_PARTITION_EXTENDED)
        p.kind = PartitionInfo::Kind::Extended;
    else if (part->type & PED_PARTITION_LOGICAL)
        p.kind = PartitionInfo::Kind::Logical;
    if (!isImage)
        p.devicePath = nodeName(disk, part, diskName);
    if (ped_disk_type_check_feature(disk->type, PED_DISK_TYPE_PARTITION_NAME))
        p.name = QString::fromUtf8(ped_partition_get_name(part));
    p.flags = flagNames(part);
    return p;
}

void fillTableSectors(PedDisk *disk, DiskLayout &layout)
{
    layout.tableSectors.clear();
    for (PedPartition *p = ped_disk_next_partition(disk, nullptr); p;
         p = ped_disk_next_partition(disk, p))
        if (p->type & PED_PARTITION_METADATA)
            layout.tableSectors.append({p->geom.start, p->geom.end});
}

void fillUsableRange(PedDisk *disk, DiskLayout &layout)
{
    layout.firstUsableSector = 0;
    layout.lastUsableSector = disk->dev->length - 1;
    // Only a GPT reserves the end of the disk (its backup). On MBR libparted marks the tail
    // after the last partition as metadata when it is short of an alignment unit, but a
    // partition may still use it.
    const bool tailIsReserved = qstrcmp(disk->type->name, "gpt") == 0;
    bool leading = true;
    for (PedPartition *p = ped_disk_next_partition(disk, nullptr); p;
         p = ped_disk_next_partition(disk, p)) {
        if (p->type & PED_PARTITION_LOGICAL)
            continue;
        const bool meta = p->type & PED_PARTITION_METADATA;
        if (leading && meta)
            layout.firstUsableSector = p->geom.end + 1;
        else if (meta && tailIsReserved && p->geom.end >= disk->dev->length - 1)
            layout.lastUsableSector = p->geom.start - 1;
        if (!meta)
            leading = false;
    }
}

// A region of free space is worth showing once it can hold an aligned partition.
constexpr qint64 kMinFreeBytes = 1 << 20;

void readRegions(PedDisk *disk, DiskLayout &layout, bool probeFilesystems, const QString &probePath)
{
    const qint64 ss = layout.device.topology.logicalSectorSize;
    // Opened only to probe: a preview (probeFilesystems false) must not touch the disk, which
    // for a helper's disk is not this machine's to open (or is another one of the same name).
    std::optional<FilesystemProbe> fsProbe;
    if (probeFilesystems)
        fsProbe.emplace(probePath.isEmpty() ? layout.device.path : probePath, ss);
    for (PedPartition *part = ped_disk_next_partition(disk, nullptr); part;
         part = ped_disk_next_partition(disk, part)) {
        if (part->type & PED_PARTITION_METADATA)
            continue;
        PartitionInfo p = describe(disk, part, layout.device.isImage, layout.device.path);
        if (p.isFree() && p.lengthSectors() * ss < kMinFreeBytes)
            continue;
        if (!p.isFree() && !p.isContainer() && probeFilesystems) {
            const FilesystemIdentity id =
                fsProbe->probe(p.startSector * ss, p.lengthSectors() * ss);
            p.filesystem = id.type;
            p.label = id.label;
            p.uuid = id.uuid;
        }
        layout.regions << p;
    }
}

} // namespace

void fillLayoutFromPedDisk(PedDisk *disk, DiskLayout &layout, bool probeFilesystems,
                           const QString &probePath)
{
    layout.tableType = QString::fromLatin1(disk->type->name);
    layout.maxPrimaryPartitions = ped_disk_get_max_primary_partition_count(disk);
    layout.regions.clear();
    fillUsableRange(disk, layout);
    fillTableSectors(disk, layout);
    readRegions(disk, layout, probeFilesystems, probePath);
}

} // namespace partwise
