#include "table/partedpartition.h"

#include <parted/parted.h>

namespace partwise {

const char *partedFilesystemName(const QString &fs)
{
    if (fs == QLatin1String("vfat") || fs == QLatin1String("fat32"))
        return "fat32";
    if (fs == QLatin1String("fat16"))
        return "fat16";
    if (fs == QLatin1String("swap"))
        return "linux-swap";
    // libparted knows no exFAT; its NTFS type is exFAT's too (MBR 0x07, GPT basic data).
    if (fs == QLatin1String("ntfs") || fs == QLatin1String("exfat"))
        return "ntfs";
    if (fs == QLatin1String("xfs"))
        return "xfs";
    if (fs == QLatin1String("btrfs"))
        return "btrfs";
    if (fs.startsWith(QLatin1String("ext")))
        return "ext2"; // libparted's one id for the ext family
    return nullptr;
}

namespace {

PedPartitionType partedType(PartitionInfo::Kind kind)
{
    switch (kind) {
    case PartitionInfo::Kind::Extended:
        return PED_PARTITION_EXTENDED;
    case PartitionInfo::Kind::Logical:
        return PED_PARTITION_LOGICAL;
    default:
        return PED_PARTITION_NORMAL;
    }
}

} // namespace

PedPartition *addExactPartition(PedDisk *disk, const PartitionSpec &spec)
{
    const char *fsName = partedFilesystemName(spec.filesystem);
    const PedFileSystemType *fsType = fsName ? ped_file_system_type_get(fsName) : nullptr;
    PedPartition *part =
        ped_partition_new(disk, partedType(spec.kind), fsType, spec.startSector, spec.endSector);
    if (!part)
        return nullptr;
    // libparted writes a GPT entry at its number without looking at its array's size (128
    // entries on a new table): a number past it would be written past the array.
    const int entries = ped_disk_get_max_primary_partition_count(disk);
    if (spec.number > entries && qstrcmp(disk->type->name, "gpt") == 0) {
        ped_exception_throw(PED_EXCEPTION_ERROR, PED_EXCEPTION_CANCEL,
                            "partition %d is past the %d entries of this GPT", spec.number,
                            entries);
        ped_partition_destroy(part);
        return nullptr;
    }
    if (spec.number > 0)
        part->num = spec.number;
    PedConstraint *exact = ped_constraint_exact(&part->geom);
    const bool added = ped_disk_add_partition(disk, part, exact);
    ped_constraint_destroy(exact);
    if (!added) {
        ped_partition_destroy(part);
        return nullptr;
    }
    for (const QString &flagName : spec.flags) {
        const PedPartitionFlag flag =
            ped_partition_flag_get_by_name(flagName.toLatin1().constData());
        if (flag && ped_partition_is_flag_available(part, flag))
            ped_partition_set_flag(part, flag, 1);
    }
    if (!spec.name.isEmpty() &&
        ped_disk_type_check_feature(disk->type, PED_DISK_TYPE_PARTITION_NAME))
        ped_partition_set_name(part, spec.name.toUtf8().constData());
    return part;
}

bool setPartitionContentType(PedPartition *part, const QString &content)
{
    // Flags that name other contents would keep the old type (libparted gives them priority).
    const bool lvm = content == QLatin1String("lvm-pv");
    for (const PedPartitionFlag flag : {PED_PARTITION_LVM, PED_PARTITION_RAID, PED_PARTITION_SWAP})
        if (ped_partition_is_flag_available(part, flag) && ped_partition_get_flag(part, flag) &&
            !(lvm && flag == PED_PARTITION_LVM) && !ped_partition_set_flag(part, flag, 0))
            return false;
    if (lvm)
        return !ped_partition_is_flag_available(part, PED_PARTITION_LVM) ||
               ped_partition_set_flag(part, PED_PARTITION_LVM, 1);
    const char *fsName = partedFilesystemName(content);
    return ped_partition_set_system(part, fsName ? ped_file_system_type_get(fsName) : nullptr);
}

} // namespace partwise
