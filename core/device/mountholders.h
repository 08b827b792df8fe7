#pragma once

// The processes that keep a mounted filesystem busy, as `fuser -m` finds them: any whose open
// files, current or root folder, program or mapped files (libraries, mmap) lie on it. The
// kernel refuses an unmount with EBUSY while one exists, and only names them in /proc, so that
// is where they are looked for.
//
// Nothing found there is stat()ed: a stat() follows /proc/PID/fd/N to the file itself, and a
// file on a FUSE filesystem whose daemon stalls (any user may mount one) would hang root's
// helper in its getattr. Instead an open file's mount is its mnt_id in /proc/PID/fdinfo/N, and
// a current or root folder's or program's is the mnt_id of an O_PATH descriptor of the link
// (which opens nothing on the filesystem); both are compared with the IDs of the filesystem's
// mounts in /proc/self/mountinfo (in the process's own mountinfo when it lives in another mount
// namespace). /proc/PID/maps gives its mapped files' device in text.
//
// fuser itself is not run: its -m resolves a path by name (as root, following links a user may
// have planted), stat()s what it finds, its list goes to standard output and the names to
// standard error in a layout made for people, and it is one more package (psmisc) the helper
// would need. Processes that vanish or that /proc hides mid-scan are skipped; the answer is a
// snapshot.

#include <QByteArray>
#include <QList>
#include <QString>

#include <sys/types.h>

namespace partwise {

struct HoldingProcess
{
    pid_t pid = 0;
    uid_t uid = 0;            // whose it is (/proc/PID's owner: root's when not dumpable)
    QString name;             // /proc/PID/comm: "sleep", "bash"
    QString describe() const; // "sleep (pid 1234)"
};

// Every process with something on the filesystem whose files have st_dev `device` (mountinfo's
// MAJ:MIN, which for btrfs is not the block device's own number), except this process.
QList<HoldingProcess> processesHolding(dev_t device);

// The "mnt_id:" of a /proc/PID/fdinfo/N text; -1 when it has none.
int mountIdInFdinfo(const QByteArray &fdinfo);

// "sleep (pid 1234), bash (pid 99)"; at most `limit` named, then "and N more".
QString describeHolders(const QList<HoldingProcess> &holders, int limit = 8);

} // namespace partwise
