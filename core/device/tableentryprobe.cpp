#include "device/tableentryprobe.h"

#include <blkid/blkid.h>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

QList<ProbedTableEntry> entriesOf(blkid_partlist list)
{
    QList<ProbedTableEntry> entries;
    for (int i = 0; i < blkid_partlist_numof_partitions(list); ++i) {
        blkid_partition part = blkid_partlist_get_partition(list, i);
        // libblkid counts in 512-byte units whatever the sector size it read with.
        entries << ProbedTableEntry{
            blkid_partition_get_partno(part), qint64(blkid_partition_get_start(part)) * 512,
            qint64(blkid_partition_get_size(part)) * 512, blkid_partition_get_type(part),
            blkid_partition_is_extended(part) != 0};
    }
    return entries;
}

} // namespace

QList<ProbedTableEntry> probeTableEntries(const QString &path, qint64 sectorSize,
                                          QString *tableType)
{
    QList<ProbedTableEntry> entries;
    tableType->clear();
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return entries;
    blkid_probe probe = blkid_new_probe();
    if (probe && blkid_probe_set_device(probe, fd, 0, 0) == 0) {
        blkid_probe_set_sectorsize(probe, unsigned(sectorSize));
        blkid_probe_enable_superblocks(probe, 0);
        blkid_probe_enable_partitions(probe, 1);
        const char *type = nullptr;
        if (blkid_do_safeprobe(probe) == 0 &&
            blkid_probe_lookup_value(probe, "PTTYPE", &type, nullptr) == 0 && type) {
            *tableType = QString::fromLatin1(type);
            if (blkid_partlist list = blkid_probe_get_partitions(probe))
                entries = entriesOf(list);
        }
    }
    blkid_free_probe(probe);
    ::close(fd);
    return entries;
}

} // namespace partwise
