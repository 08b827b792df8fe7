#pragma once

#include <QString>
#include <QStringList>

namespace partwise {

// What holds a disk or a partition: mounts, active swap, and kernel holders (LVM, RAID,
// dm-crypt), so Partwise can refuse to change it and say why. For an image file, the loop
// devices that show it are examined too.

// Reasons partition `partitionNumber` of `diskPath` is busy ("/dev/loop3p2 is mounted on /mnt").
// Empty when it is free. `partitionNumber` 0 asks about the whole disk and all its partitions.
QStringList busyReasons(const QString &diskPath, int partitionNumber);

} // namespace partwise
