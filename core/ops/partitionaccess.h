#pragma once

#include "fs/filesystemsize.h"
#include "table/disklayout.h"

// How filesystem tools reach a partition: through its device node when the kernel has one,
// otherwise by offset inside the disk or image file. A disk whose partitions the kernel has not
// been told about (no partition scanning, a loop device without partx) has no nodes, and
// libparted still names them.
FilesystemLocation partitionLocation(const DiskLayout &layout, qint64 startSector, int number);
