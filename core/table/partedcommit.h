#pragma once

// Writing a libparted table and telling the kernel of it.
//
// ped_disk_commit() writes the table, tells the kernel of each partition (BLKPG) and then, in
// Debian's libparted, waits for udev's queue (`udevadm settle`). udev holds back the events of a
// disk that a job keeps locked (diskwritelock.h), so that wait never ended while the lock was
// held: a realignment on a machine with udevd running wrote everything and then hung. The table
// is written with the lock held, and the kernel is told with it let go.

typedef struct _PedDisk PedDisk;

namespace partwise {

// ped_disk_commit_to_dev(), then, for a block device (`isImage` false), ped_disk_commit_to_os()
// with this process's write lock of the disk let go meanwhile. False when either failed (the
// session's error text says why).
bool commitTable(PedDisk *disk, bool isImage);

// Only the second half: the kernel told of the table on the disk (which holds it already, written
// by commitTable() or from a redo record: ops/journaledtablecommit.h), the lock let go meanwhile.
bool tellKernelOfTable(PedDisk *disk);

} // namespace partwise
