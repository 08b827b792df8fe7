#pragma once

#include "base/toolrunner.h"
#include "fs/filesystemsize.h"
#include "table/disklayout.h"

namespace partwise {

// How filesystem tools reach a partition: through its device node when the kernel has one that
// lies where the table says, otherwise by offset inside the disk or image file. A disk whose
// partitions the kernel has not been told about (no partition scanning, a loop device without
// partx) has no nodes, and libparted still names them.
FilesystemLocation partitionLocation(const DiskLayout &layout, qint64 startSector, int number);

// The filesystem's own read-only check of the `sizeBytes` at `where`: e2fsprogs reads ext2/3/4
// at an offset inside an image, the other tools need a device node, which inside an image is a
// read-only loop device (root), the partition as a file through FUSE, or a scratch copy
// (resizesupport.h's FilesystemNode). When none can be had, `*noNode` is set and error says why.
ToolResult checkPartitionReadOnly(const FilesystemLocation &where, qint64 sizeBytes,
                                  const QString &filesystem, bool *noNode = nullptr);

} // namespace partwise
