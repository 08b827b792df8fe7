#pragma once

#include "base/toolrunner.h"
#include "fs/filesystemsize.h"

namespace partwise {

// Resizing F2FS offline with resize.f2fs (f2fs-tools). Shrinking needs its "safe resize" mode
// (-s), which moves data out of the segments past the new end but keeps the metadata areas
// sized for the old size; without -s, f2fs-tools 1.15 prints "Nothing to resize" and exits 0.
// It also exits 0 when it finds too little room to shrink and leaves the filesystem as it was,
// so the result is judged by the size the superblock records afterwards, and by fsck.f2fs.
// The filesystem is checked before (fsck.f2fs --dry-run -f) and refused untouched when damaged.
// resize.f2fs cannot work at an offset inside a file: inside an image it gets a loop device
// over the partition as root, else the partition as a file through FUSE.

ToolResult resizeF2fsFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                                qint64 newBytes);

} // namespace partwise
