#pragma once

// The processes that keep a mounted filesystem busy, as `fuser -m` finds them: any whose open
// files, current or root folder, program or mapped files (libraries, mmap) lie on it. The
// kernel refuses an unmount with EBUSY while one exists, and only names them in /proc, so that
// is where they are looked for: every /proc/PID/fd/*, cwd, root and exe is stat()ed for its
// st_dev, and every line of /proc/PID/maps is read for its device.
//
// fuser itself is not run: its -m resolves a path by name (as root, following links a user may
// have planted), its list goes to standard output and the names to standard error in a layout
// made for people, it is one more package (psmisc) the helper would need, and the scan is short.
// Processes that vanish or that /proc hides mid-scan are skipped; the answer is a snapshot.

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

// "sleep (pid 1234), bash (pid 99)"; at most `limit` named, then "and N more".
QString describeHolders(const QList<HoldingProcess> &holders, int limit = 8);

} // namespace partwise
