#include "boot/partitionentries.h"

#include <blkid/blkid.h>

namespace partwise {

const PartitionEntry *PartitionEntries::byNumber(int number) const
{
    for (const PartitionEntry &e : entries)
        if (e.number == number)
            return &e;
    return nullptr;
}

PartitionEntries readPartitionEntries(int fd, qint64 sectorSize)
{
    PartitionEntries r;
    blkid_probe probe = blkid_new_probe();
    if (!probe) {
        r.error = QStringLiteral("libblkid could not start a probe.");
        return r;
    }
    if (blkid_probe_set_device(probe, fd, 0, 0) != 0) {
        r.error = QStringLiteral("libblkid could not read the disk.");
        blkid_free_probe(probe);
        return r;
    }
    blkid_probe_set_sectorsize(probe, unsigned(sectorSize));
    blkid_probe_enable_superblocks(probe, 0);
    blkid_probe_enable_partitions(probe, 1);
    blkid_probe_set_partitions_flags(probe, BLKID_PARTS_ENTRY_DETAILS);
    blkid_partlist list = blkid_probe_get_partitions(probe);
    blkid_parttable table = list ? blkid_partlist_get_table(list) : nullptr;
    if (!table) {
        r.error = QStringLiteral("libblkid found no partition table.");
        blkid_free_probe(probe);
        return r;
    }
    r.tableType = QString::fromUtf8(blkid_parttable_get_type(table));
    r.diskId = QString::fromUtf8(blkid_parttable_get_id(table)).toLower();
    // libblkid counts in 512-byte units whatever the disk's sector size.
    const qint64 per = sectorSize / 512;
    const bool gpt = r.tableType == QLatin1String("gpt");
    for (int i = 0; i < blkid_partlist_numof_partitions(list); ++i) {
        blkid_partition p = blkid_partlist_get_partition(list, i);
        PartitionEntry e;
        e.number = blkid_partition_get_partno(p);
        e.startSector = qint64(blkid_partition_get_start(p)) / per;
        e.lengthSectors = qint64(blkid_partition_get_size(p)) / per;
        if (gpt) {
            e.typeGuid = QString::fromUtf8(blkid_partition_get_type_string(p)).toLower();
            e.partitionGuid = QString::fromUtf8(blkid_partition_get_uuid(p)).toLower();
        } else {
            e.mbrType = blkid_partition_get_type(p);
            e.active = (blkid_partition_get_flags(p) & 0x80) != 0;
        }
        r.entries << e;
    }
    blkid_free_probe(probe);
    r.ok = true;
    return r;
}

} // namespace partwise
