#pragma once

// Giving a filesystem a new UUID (volume serial) with its own tool: tune2fs -U for ext2/3/4,
// xfs_admin -U, btrfstune -u, mkswap's own header through swaplabel -U, ntfslabel
// --new-serial, mlabel -N for FAT, tune.exfat -I for exFAT. Two filesystems with one UUID on a
// machine confuse mounting by UUID and booting, so a copy that will sit beside its source gets
// new ones; the window's "New UUID" action uses the same call.

#include "base/toolrunner.h"
#include "fs/filesystemsize.h"

namespace partwise {

// Whether Partwise can give `filesystem` (libblkid's TYPE) a new UUID.
bool canChangeFilesystemUuid(const QString &filesystem);

// Gives the unmounted filesystem at `where` (in a partition of `partitionBytes`) a new random
// UUID. A missing tool gives an error naming its Debian package.
ToolResult newFilesystemUuid(const FilesystemLocation &where, qint64 partitionBytes,
                             const QString &filesystem);

} // namespace partwise
