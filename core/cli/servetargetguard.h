#pragma once

// What `partwise-cli serve` agrees to touch. Run through pkexec it has root's rights on behalf
// of a user who has only their own; over SSH it may be root on another machine. So every path
// a request names passes here first, and anything that is not plainly a disk is refused with a
// sentence, before any code opens it for reading or writing:
//   - a plain absolute path (no "..", no doubled or trailing slash), at most 4,096 bytes;
//   - resolved one component at a time without following links (base/nofollowfile.h), and
//     judged on what that walk opened (an O_PATH descriptor, so a FIFO cannot block it), never
//     on a second look at the name; only udev's names under /dev/disk/ are read as links, and
//     only when they lead to a block device directly in /dev;
//   - root working for a user (pkexec, sudo): a block device whose every folder only root may
//     change, so the name the jobs later open stays bound to this device. No regular file: a
//     user's image is the user's own, opened by a helper running as the user (the window starts
//     one), and root creates nothing beside it and reads nothing of it;
//   - root working for root: a block device, or a regular file of root's outside the system's
//     folders (/etc, /proc, /sys, /boot, /usr, /bin, /sbin, /lib…, /run, /var/lib, /var/log);
//   - a helper without root: any block device or regular file the kernel lets it open.
// Whether a disk is busy (mounted, swap, held by the kernel) is the write jobs' own check, as
// for the CLI.

#include "cli/serveduser.h"

#include <QString>

#include <sys/types.h>

namespace partwise {

class OpenDisk;

class ServeTargetGuard
{
public:
    explicit ServeTargetGuard(ServedUser user) : m_user(user) {}
    ServeTargetGuard(uid_t invokingUser, bool privileged) : m_user{invokingUser, privileged} {}

    // True when `path` may be used; `why` says otherwise. `resolved` is the name the jobs are to
    // use: the disk's own for a udev name, else `path`.
    bool admits(const QString &path, QString *why, QString *resolved = nullptr) const;
    // admits(), and `disk` opened from what the guard's own walk found (root's helper), or by
    // the name for a helper with only the user's rights (the kernel judges those): the one open
    // every later read of the request goes through.
    bool opens(const QString &path, OpenDisk *disk, QString *why) const;
    const ServedUser &servedUser() const { return m_user; }
    // Whether a filesystem mounted on `target` may be unmounted for the served user. Root working
    // for a user unmounts only what was mounted for that user: in the user's own /run/media/USER
    // or /media/USER (udisks), or inside the user's own home (what the helper itself mounted, the
    // session knows); never the system's or the administrator's places (/, /boot, /mnt…), which
    // a program of the user could otherwise free for a write or mount again on its own folder,
    // nor another user's stick.
    bool admitsUnmountAt(const QString &target, QString *why) const;

private:
    bool admitsOpening(const QString &path, QString *why, QString *resolved,
                       OpenDisk *opened) const;
    // `opened`: where to open the disk from the walk's descriptor once it is admitted.
    bool admitsPrivileged(const QString &path, const QString &resolved, QString *why,
                          OpenDisk *opened = nullptr) const;

    ServedUser m_user;
};

} // namespace partwise
