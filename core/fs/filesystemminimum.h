#pragma once

#include "fs/filesystemsize.h"

#include <optional>

namespace partwise {

// The smallest size a filesystem can be shrunk to, as its own tool estimates it (ext2/3/4:
// `resize2fs -P`, which also works at an offset inside an image; FAT: libparted's resizer's
// constraint; btrfs: the kernel's 256 MiB floor). Nothing for the others or when the tool cannot
// tell: callers then fall back to what they know (the current size of a filesystem that cannot
// shrink, 1 MiB for one that can, whose tool then refuses a size too small before writing).
std::optional<qint64> filesystemMinimumBytes(const FilesystemLocation &where,
                                             const QString &filesystem);

// How far a partition holding `filesystem` may shrink as far as the filesystem knows: its
// minimum for one that Partwise can shrink, its own size for one that cannot. Nothing when
// the tool cannot tell.
std::optional<qint64> filesystemShrinkLimitBytes(const FilesystemLocation &where,
                                                 const QString &filesystem);

} // namespace partwise
