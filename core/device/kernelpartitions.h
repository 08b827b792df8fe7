#pragma once

// The partitions the kernel has for a whole disk, read from sysfs: where each one lies, which
// need not be where the disk's table now puts it (a table written while the kernel could not
// re-read it; a loop device reused for another image with the old partitions still registered).

#include <QList>
#include <QString>
#include <QtGlobal>

namespace partwise {

struct KernelPartitionPlace
{
    int number = 0;
    qint64 startBytes = -1; // -1 when sysfs does not say
    qint64 sizeBytes = -1;
    QString sysfsFolder; // "/sys/devices/.../block/loop0/loop0p1"

    bool overlaps(qint64 start, qint64 length) const
    {
        return startBytes >= 0 && sizeBytes >= 0 && start < startBytes + sizeBytes &&
               startBytes < start + length;
    }
};

// The partitions of the disk whose sysfs folder is `diskFolder` (/sys/dev/block/MAJ:MIN,
// resolved); empty for a partition's folder or one that is not there.
QList<KernelPartitionPlace> kernelPartitionPlaces(const QString &diskFolder);
// The same for the whole disk `diskPath` (a block device); empty for anything else.
QList<KernelPartitionPlace> kernelPartitionPlacesOfDisk(const QString &diskPath);

} // namespace partwise
