#pragma once

#include "fs/filesystemsize.h"
#include "fs/toolrunner.h"

// Changing a filesystem's size with its own tool, before a partition shrinks or after it grows.
// ext2/3/4 work at an offset inside an image (e2fsprogs' "file?offset=N"); NTFS needs a device
// node (the partition, or a loop device over the image, which needs root). XFS cannot shrink,
// and XFS and btrfs grow only while mounted: those get a message saying what to do instead.

// Whether `filesystem` can be shrunk / grown by Partwise while unmounted.
bool canShrinkUnmounted(const QString &filesystem);
bool canGrowUnmounted(const QString &filesystem);

// Resizes the filesystem at `where` (currently inside a partition of `partitionBytes`) to
// `newBytes`. Swap and unformatted space need nothing and succeed.
ToolResult resizeFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                            const QString &filesystem, qint64 newBytes);
