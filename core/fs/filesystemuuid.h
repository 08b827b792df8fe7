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

// A new random UUID for `filesystem` as libblkid shows it: "XXXX-XXXX" for FAT and exFAT (a
// 32-bit serial, never zero), 16 hex digits for NTFS (a 64-bit serial), else an RFC 4122 UUID.
// Chosen before a job runs, so the plan can name the UUID the job writes.
QString randomFilesystemUuid(const QString &filesystem);

// Whether `uuid` has the form libblkid shows for `filesystem` (above), and is not all zeros.
bool fitsFilesystemUuid(const QString &filesystem, const QString &uuid);
// Whether `uuid` has one of those forms (a plan file's, before its filesystem is known).
bool fitsSomeFilesystemUuid(const QString &uuid);

// Gives the unmounted filesystem at `where` (in a partition of `partitionBytes`) the new UUID
// `uuid` (in the form above; empty: a random one). A missing tool gives an error naming its
// Debian package.
ToolResult newFilesystemUuid(const FilesystemLocation &where, qint64 partitionBytes,
                             const QString &filesystem, const QString &uuid = QString());

} // namespace partwise
