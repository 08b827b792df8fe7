#pragma once

// The kernel's tables of what is mounted and what is swapped on, read through libmount.
//
// Two questions need them: is this partition busy (core/device/busycheck) and does this folder
// live in memory (core/move/journaldurability). /proc/self/mountinfo and /proc/swaps look easy
// to split on blanks, but paths in them are octal-escaped, mountinfo has a variable number of
// optional fields before its " - ", and util-linux already parses both for mount(8), swapon(8)
// and findmnt(8). So Partwise reads them with libmount as those tools do, here in the lowest
// folder, where both the data mover and the busy check may use it.
//
// A table that cannot be read comes back empty: callers then see nothing mounted, as they did
// when they opened the files themselves. Tests may hand in a file of their own.

#include <QList>
#include <QString>
#include <QStringList>

#include <sys/types.h>

namespace partwise {

struct MountEntry
{
    QString source;     // what is mounted: "/dev/sda1", "tmpfs", "overlay"
    QString target;     // where, unescaped: "/mnt/my disk"
    QString type;       // "ext4", "tmpfs", "overlay"
    QString fsOptions;  // the filesystem's own options ("upperdir=/x,lowerdir=/y")
    QString vfsOptions; // the mount's own options ("rw,nosuid,relatime")
    QString root;       // the folder of the filesystem shown there: "/" unless a bind mount
    dev_t device = 0;   // st_dev of the files under `target` (mountinfo's major:minor)
    int id = 0;         // the mount's ID (mountinfo's first field, fdinfo's mnt_id)
};

// The mounts in `mountinfo` (the process's own view by default), in the kernel's order: a later
// entry on the same target is mounted over an earlier one.
QList<MountEntry> readMountTable(const QString &mountinfo = QStringLiteral("/proc/self/mountinfo"));

// The mount a path the kernel wrote lies on (a loop device's backing_file, a line of /proc/swaps:
// absolute, no links, no ".."): the entry whose target is the longest folder above it, the last
// mounted of those on one target. Found in the table alone: no filesystem is asked. Null when
// none is.
const MountEntry *mountHolding(const QList<MountEntry> &mounts, const QString &kernelPath);

// Whether a stat() on this mount may wait as long as someone else likes: FUSE (a user's daemon
// answers) and network filesystems (a server does). Root's busy checks do not ask such a one.
bool mayStall(const MountEntry &mount);

// The value of `name` in a comma-separated option string ("upperdir" in an overlay's options),
// or an empty string when it is not there.
QString mountOption(const QString &options, const QString &name);

// The devices and files in use as swap, as /proc/swaps (or `swaps`) names them.
QStringList activeSwaps(const QString &swaps = QStringLiteral("/proc/swaps"));

} // namespace partwise
