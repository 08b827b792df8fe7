#pragma once

// The kernel's device of partition N of a disk, found through sysfs (/sys/dev/block/MAJ:MIN and
// its "partition" children), never by putting a number after a name: "sda" + "1" is sda1, but
// "nvme0n1" + "1" is not, and a name a user made up proves nothing. The node in /dev must be a
// block device with that very device number.

#include <QString>
#include <QtGlobal>

#include <sys/types.h>

namespace partwise {

struct PartitionNode
{
    QString path;     // "/dev/loop3p1"
    dev_t device = 0; // its st_rdev
    // Where the kernel's partition lies on the disk, which need not be where the table now says
    // (a table written while the kernel could not re-read it, a loop device reused for another
    // image with the old partitions still registered); -1 when sysfs does not say.
    qint64 startBytes = -1;
    qint64 sizeBytes = -1;
};

// Partition `number` of the whole disk `diskPath` (a block device). False with `why` when
// `diskPath` is not a whole disk or has no such partition.
bool findPartitionNode(const QString &diskPath, int number, PartitionNode *out, QString *why);

} // namespace partwise
