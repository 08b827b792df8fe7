#pragma once

// Unmounting, mounting and swap of one partition, for a person who wants to change a partition
// in use ("Unmount and carry on"). Never forced: umount2() without MNT_FORCE or MNT_DETACH, so
// a filesystem something still uses stays mounted, and the processes using it are named
// (mountholders.h) instead. Every place a filesystem is mounted (bind mounts, a second mount) is
// unmounted, and remembered with its type and options so it can be mounted back as it was.
//
// Paths are never followed: a mount point is reached by a walk that refuses links
// (base/nofollowfile.h), checked on the open descriptor to be that filesystem's own root, and
// unmounted or mounted through /proc/self/fd/N of that descriptor, so a link planted on the way
// after the check changes nothing. Where root mounts for a user the folder is judged by
// mountfolder.h first.

#include "device/filesystemprobe.h"
#include "device/mountholders.h"
#include "device/partitionnode.h"

#include <QList>
#include <QString>

#include <optional>
#include <sys/types.h>

namespace partwise {

// A place a filesystem was mounted, as the kernel's mount table said.
struct MountPlace
{
    QString source;     // "/dev/loop3p1"
    QString target;     // "/mnt/data"
    QString type;       // "ext4"
    QString vfsOptions; // "rw,nosuid,relatime"
    QString fsOptions;  // "errors=remount-ro"
    QString root;       // "/" unless a bind mount of a folder inside
    dev_t device = 0;   // mountinfo's major:minor (a btrfs subvolume's files have their own)
    int id = 0;         // the mount's ID (mountinfo's first field)
};

// Where `node` is mounted now, in the kernel's order (a later one may sit on an earlier one).
QList<MountPlace> mountPlacesOf(const PartitionNode &node);

// Whether a mount's (or swap's) source text names the block device `device` (a FUSE filesystem
// on a block device, ntfs-3g's fuseblk, has an anonymous st_dev of its own). Only a path under
// /dev, without "..", is looked at, and never a FUSE mount's ("fuse", "fuse.*"): its source is
// whatever its user wrote ("-o fsname=/dev/sda1", or a path through a stalled FUSE folder whose
// stat() would hang root's helper). Only root mounts fuseblk.
bool mountSourceIsDevice(const QString &source, dev_t device, const QString &type = QString());
// Whether `node` is in use as swap.
bool swapIsOn(const PartitionNode &node);

struct UnmountOutcome
{
    bool ok = false;
    QString error;                 // why not, naming what holds it
    QList<HoldingProcess> holders; // the processes that keep it busy
    QList<MountPlace> unmounted;   // what was unmounted (also when a later place failed)
};

// Unmounts `node` at every place, the last mounted first. A place that stays busy stops it: the
// error names the processes (or the filesystem mounted inside it); what was unmounted before
// that is in `unmounted`, for the caller to mount back.
// `namedFor` set (root working for a user): only that user's processes are named, the others
// counted, as `fuser` run by that user shows no more.
UnmountOutcome unmountEverywhere(const PartitionNode &node,
                                 std::optional<uid_t> namedFor = std::nullopt);

bool swapOff(const PartitionNode &node, QString *why);
// Only a partition holding a swap signature (libblkid) is turned on.
bool swapOn(const PartitionNode &node, QString *why);

// What libblkid finds on `node`: type ("ext4", "swap"), label, UUID; empty when nothing.
FilesystemIdentity filesystemOf(const PartitionNode &node);

// Mounts `node` on the folder open as `folderFd` (an O_PATH descriptor from mountfolder.h),
// nosuid and nodev: a filesystem a user brings must not give anyone root. Refused when it is
// mounted already, in use as swap, or has no filesystem the kernel mounts.
bool mountOnFolder(const PartitionNode &node, int folderFd, QString *why);

// Mounts `node` back at `places` (from unmountEverywhere), with their old options. Each folder
// is reached without links; `servedUser` set (root working for a user): a folder whose name
// another user than root could change must belong to that user, and is then mounted nosuid,nodev.
bool mountBack(const PartitionNode &node, const QList<MountPlace> &places,
               std::optional<uid_t> servedUser, QString *why);

} // namespace partwise
