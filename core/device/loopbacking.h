#pragma once

// What a loop device shows, known by the file the kernel holds rather than by its name.
//
// sysfs gives a loop device's backing file as a path, and a path is only what that name leads to
// now: once the file is deleted the kernel writes "/home/u/disk.img (deleted)", a name anyone
// who may write in that folder can then create, as a link to a disk (which every busy check would
// then find "backing" a loop device) or to a file on a FUSE filesystem whose daemon never
// answers (which would hang root's stat() for good). LOOP_GET_STATUS64 on root's own node of the
// loop device gives the backing file's device and inode numbers, and a backing block device's
// number, from the file itself. Only a backing file on a filesystem that may stall (the mount
// table says FUSE or network) is not asked about: the kernel's getattr would wait on it too;
// such a loop device is known by its path alone.

#include "base/mounttable.h"

#include <QList>
#include <QString>

#include <optional>
#include <sys/stat.h>
#include <sys/types.h>

namespace partwise {

struct LoopBacking
{
    QString loop;            // "/dev/loop3"
    QString path;            // as sysfs writes it
    bool identified = false; // the numbers below are the kernel's
    dev_t fileSystem = 0;    // a backing file's st_dev
    ino_t inode = 0;         // and st_ino
    dev_t blockDevice = 0;   // a backing block device's number; 0 for a file
    // Not 0 when the kernel refused to say (an errno other than "no longer bound"): what it
    // shows is not known, and a busy check cannot tell whether it holds a disk.
    int unanswered = 0;

    // Whether this loop device shows the file or block device `st` describes (from an fstat or a
    // stat of a name root trusts). A loop device known by its path alone matches `canonicalPath`.
    bool shows(const struct stat &st, const QString &canonicalPath) const;
};

// Every bound loop device, read once (`mounts`: the kernel's mount table, to leave alone what
// may stall). The kernel is asked in a process of its own, given two seconds in all, and left
// behind if it does not answer: its getattr of a backing file on a FUSE mount root cannot see
// (lazily unmounted, in another namespace) waits on the daemon, beyond any signal. A loop device
// it did not answer for in time is known by its path alone.
QList<LoopBacking> loopBackings(const QList<MountEntry> &mounts);
// The same for the loop devices named ("loop3").
QList<LoopBacking> loopBackingsOf(const QStringList &names, const QList<MountEntry> &mounts);
// The loop device whose sysfs folder name is `name` ("loop3"); nullopt when it shows nothing.
std::optional<LoopBacking> loopBackingOf(const QString &name, const QList<MountEntry> &mounts);

} // namespace partwise
