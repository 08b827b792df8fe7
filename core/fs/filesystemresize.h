#pragma once

#include "base/toolrunner.h"
#include "fs/filesystemsize.h"

namespace partwise {

// Changing a filesystem's size with its own tool, before a partition shrinks or after it grows.
// ext2/3/4 and NTFS go through resize2fs and ntfsresize on a device node (the partition; inside
// an image a loop device as root, else the partition as a file through FUSE: resizesupport.h's
// FilesystemNode). FAT16/FAT32 go through libparted's resizer
// (fatresize.h), btrfs through a short private mount (btrfsresize.h), F2FS through resize.f2fs
// (f2fsresize.h); these three are checked read-only by their own tool first and refused
// untouched when damaged. XFS cannot shrink at all.

// The filesystems a copy or paste shrinks to fit and grows to fill: ext2/3/4 and NTFS (with
// swap and ""). What this session can do with a filesystem in general, for Resize/Move, Apply
// and the planner, is fs/sessionabilities.h's filesystemAbilityHere.
bool canShrinkUnmounted(const QString &filesystem);
bool canGrowUnmounted(const QString &filesystem);

// Whether resizeFilesystem can shrink `filesystem` (libblkid's name) by the few MiB a
// realignment needs: ext2/3/4, ntfs, vfat (FAT16/FAT32; FAT12 is refused when met), btrfs
// (needs root), f2fs, swap (recreated by the caller) and "" (unformatted).
bool filesystemCanShrink(const QString &filesystem);

// Resizes the filesystem at `where` (currently inside a partition of `partitionBytes`) to
// `newBytes`. Swap and unformatted space need nothing and succeed. A missing tool gives an error
// naming its Debian package.
ToolResult resizeFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                            const QString &filesystem, qint64 newBytes);

} // namespace partwise
