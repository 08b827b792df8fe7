#pragma once

#include <QString>
#include <QStringList>

namespace partwise {

// What holds a disk or a partition, so Partwise can refuse to change it and say why: mounts,
// active swap, kernel holders (LVM, RAID, dm-crypt, bcache), loop devices backed by it, and
// finally the kernel's own answer: an exclusive open (O_EXCL) of a block device fails with EBUSY
// while it is mounted or claimed, and for a whole disk while any of its partitions is. That open
// is closed at once (holding it would make the filesystems' own tools fail).
//
// For an image file, the loop devices that show it are examined as disks: any use of one counts.
// A target that is itself a partition device (/dev/sda1, /dev/loop0p1) is judged as one: its own
// use and what holds its parent disk as a whole.

// Reasons `diskPath` may not be written ("/dev/loop3p2 is mounted on /mnt"); empty when free.
// `partitionNumber` 0 asks about everything on the disk: the whole device and every partition (what
// a write of the partition table needs). N asks about partition N: its own use, and the use of the
// whole device itself (a filesystem on the whole disk, whose superblock the table would replace).
QStringList busyReasons(const QString &diskPath, int partitionNumber);

// The probe writes around partitions in use, so it asks its two questions apart (block devices
// only): what holds the whole device itself, not counting its partitions; and what holds
// partition N itself, not counting the whole device.
QStringList wholeDeviceBusyReasons(const QString &diskPath);
// What holds the kernel's partitions that lie over bytes [start, start + length) of the disk
// `diskPath`, whatever their numbers: a partition the kernel still places where an older table
// had it may cover another partition of the table, which is written by offset. Block devices.
QStringList busyOverlapping(const QString &diskPath, qint64 startBytes, qint64 lengthBytes);
QStringList partitionOwnBusyReasons(const QString &diskPath, int partitionNumber);

} // namespace partwise
