#include "device/topologyprobe.h"

#include <QFile>

#include <blkid/blkid.h>

#include <cerrno>
#include <cstring>

namespace partwise {

bool probeBlockDeviceTopology(const QString &devicePath, SectorTopology *topology, QString *error)
{
    auto fail = [error, &devicePath](const QString &why) {
        if (error)
            *error = QStringLiteral("libblkid could not read the topology of %1: %2.")
                         .arg(devicePath, why);
        return false;
    };
    errno = 0;
    blkid_probe probe = blkid_new_probe_from_filename(QFile::encodeName(devicePath).constData());
    if (!probe)
        return fail(errno != 0 ? QString::fromLocal8Bit(std::strerror(errno))
                               : QStringLiteral("it cannot be opened"));
    SectorTopology read = *topology;
    bool ok = false;
    if (blkid_topology tp = blkid_probe_get_topology(probe)) {
        read.logicalSectorSize = qint64(blkid_topology_get_logical_sector_size(tp));
        read.physicalSectorSize = qint64(blkid_topology_get_physical_sector_size(tp));
        read.minimumIoSize = qint64(blkid_topology_get_minimum_io_size(tp));
        read.optimalIoSize = qint64(blkid_topology_get_optimal_io_size(tp));
        read.alignmentOffset = qint64(blkid_topology_get_alignment_offset(tp));
        read.source = QStringLiteral("kernel (libblkid topology)");
        ok = read.logicalSectorSize > 0;
    }
    blkid_free_probe(probe);
    if (!ok)
        return fail(QStringLiteral("it reports no sector sizes"));
    *topology = read;
    return true;
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

} // namespace partwise
