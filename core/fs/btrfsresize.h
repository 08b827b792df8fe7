#pragma once

#include "base/toolrunner.h"
#include "fs/filesystemsize.h"

namespace partwise {

// Resizing a single-device btrfs. btrfs resizes only while mounted (the kernel relocates the
// chunks past the new end), so Partwise mounts it privately for the few seconds it takes: in a
// fresh folder under /run (desktop file managers list mounts under /media, /run/media and the
// home folder only), nosuid,nodev,noexec, and through mount(2) rather than udisks, so no
// automounter sees a new volume. It is unmounted again however the resize ends. Inside an image
// it goes through a loop device over the partition. Mounting needs root.
//
// `btrfs check --readonly` runs first; a damaged filesystem is refused untouched.

ToolResult resizeBtrfsFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                                 qint64 newBytes);

} // namespace partwise
