#include "device/topologyprobe.h"

#include <blkid/blkid.h>

bool probeBlockDeviceTopology(const QString &devicePath, SectorTopology &topology)
{
    blkid_probe probe = blkid_new_probe_from_filename(devicePath.toLocal8Bit().constData());
    if (!probe)
        return false;
    bool ok = false;
    if (blkid_topology tp = blkid_probe_get_topology(probe)) {
        topology.logicalSectorSize = qint64(blkid_topology_get_logical_sector_size(tp));
        topology.physicalSectorSize = qint64(blkid_topology_get_physical_sector_size(tp));
        topology.minimumIoSize = qint64(blkid_topology_get_minimum_io_size(tp));
        topology.optimalIoSize = qint64(blkid_topology_get_optimal_io_size(tp));
        topology.alignmentOffset = qint64(blkid_topology_get_alignment_offset(tp));
        topology.source = QStringLiteral("kernel (libblkid topology)");
        ok = topology.logicalSectorSize > 0;
    }
    blkid_free_probe(probe);
    return ok;
}

SectorTopology imageFileTopology(qint64 logicalSectorSize)
{
    SectorTopology t;
    t.logicalSectorSize = logicalSectorSize;
    t.physicalSectorSize = logicalSectorSize;
    t.minimumIoSize = logicalSectorSize;
    t.optimalIoSize = 0;
    t.alignmentOffset = 0;
    t.source = QStringLiteral("image file");
    return t;
}
