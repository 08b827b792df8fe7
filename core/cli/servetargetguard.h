#pragma once

// What `partwise-cli serve` agrees to touch. Run through pkexec it has root's rights on behalf
// of a user who has only their own; over SSH it may be root on another machine. So every path
// a request names passes here first, and anything that is not plainly a disk is refused with a
// sentence, before any code opens it:
//   - a plain absolute path (no "..", no doubled or trailing slash), at most 4,096 bytes;
//   - no symbolic link on the way, except udev's names under /dev/disk/ for a block device;
//   - a block device, or a regular file owned by the user the helper works for (PKEXEC_UID,
//     else SUDO_UID, else the helper's own (effective) user) and outside the system's folders
//     (/etc, /proc, /sys, /boot, /usr, /bin, /sbin, /lib…, /run, /var/lib, /var/log).
// Whether a disk is busy (mounted, swap, held by the kernel) is the write jobs' own check, as
// for the CLI.

#include <QString>

#include <sys/types.h>

namespace partwise {

class ServeTargetGuard
{
public:
    // `privileged`: the helper runs as root. One that does not has only its user's rights, and
    // the kernel's permissions decide which files it may read or write: it takes any block
    // device or regular file by a clean absolute path, through links and in any folder (a
    // udisks mount under /run/media, ~/images linked to another disk).
    explicit ServeTargetGuard(uid_t invokingUser, bool privileged = true)
        : m_user(invokingUser), m_privileged(privileged)
    {
    }
    // PKEXEC_UID, else SUDO_UID, else geteuid(); privileged when the effective user is root.
    static ServeTargetGuard fromEnvironment();

    // True when `path` may be used; `why` says otherwise.
    bool admits(const QString &path, QString *why) const;
    uid_t invokingUser() const { return m_user; }

private:
    uid_t m_user;
    bool m_privileged;
};

} // namespace partwise
