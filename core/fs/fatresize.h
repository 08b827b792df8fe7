#pragma once

#include "base/toolrunner.h"
#include "fs/filesystemsize.h"

#include <optional>

namespace partwise {

// Resizing FAT16/FAT32 in place, through libparted's filesystem resizer (libparted-fs-resize).
//
// Why libparted: dosfstools can make and check FAT but not resize it, and the one other resizer
// Debian ships, `fatresize`, is a thin command-line wrapper around this same library — as is
// GParted's FAT resizing. Going to the library directly avoids a tool that asks questions on a
// terminal and saves parsing its output; the questions it would ask reach us as libparted
// exceptions, which a PartedSession answers. The resizer rewrites the FATs and moves clusters
// that lie past the new end, and may offer to switch between FAT16 and FAT32 when the cluster
// count demands it: we always keep the type (a switch would break old boot loaders), so such a
// size is refused with libparted's own explanation. FAT12 is not supported by libparted and is
// refused, as is a FAT with sectors other than 512 bytes (libparted's resizer is known to break
// them).
//
// The filesystem is checked with `fsck.fat -n` first, which needs a device node: inside an image
// a read-only loop device over the partition as root, else the partition as a file through FUSE
// (or a scratch copy). The resize itself then works on the image at the partition's offset, or
// on the partition node, and fatlabel writes the label back through a writable one of those.

ToolResult resizeFatFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                               qint64 newBytes);

// The smallest size libparted's resizer would shrink the FAT of `filesystemBytes` at `where` to
// (its cluster counts and the clusters in use), read without writing; nothing when it cannot
// open it.
std::optional<qint64> fatMinimumBytes(const FilesystemLocation &where, qint64 filesystemBytes);

} // namespace partwise
