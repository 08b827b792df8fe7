#pragma once

// A FUSE filesystem mounted by fusermount3 (Debian package fuse3), the setuid helper through
// which a user mounts FUSE without root, on a folder of its own: `fuse` in a new 0700 folder in
// the temporary folder. Unmounted, and both folders removed, when this object ends and also when
// Partwise is killed at any instant.
//
// fusermount3's own auto_unmount cannot be relied on for that: fuse3 3.14 (Debian 12, Ubuntu
// 24.04) checks the abandoned mount as root, and the kernel keeps root out of a user's mount
// made without allow_other (EACCES, not the ENOTCONN it looks for), so it never unmounts (fixed
// in 3.15). So a keeper of our own does it: a child forked before the mount, in a session of its
// own with every signal blocked and nothing open but the reading end of a pipe whose writing end
// only this process holds (close-on-exec: no tool inherits it). When that pipe closes (unmount(),
// or the kernel closing it for a killed process) the keeper runs `fusermount3 -u -z` on the
// folder and removes the two folders (rmdir: never anything inside them).
//
// The mount itself is made here too, not by libfuse's fuse_session_mount(), which forks
// without regard for the other threads of a Qt program and prints its reasons on stderr:
// fusermount3's own words become the error message, and the descriptor it sends back is handed to
// libfuse as "/dev/fd/N", its documented way for a mount made by someone else.

#include <QString>
#include <QStringList>

#include <sys/types.h>

namespace partwise {

// Why this session cannot mount FUSE through fusermount3, or an empty string when it can.
// Cheap (looks at /dev/fuse and fusermount3, mounts nothing), and never cached: what it looks at
// can change while Partwise runs.
QString fuseMountProblem();

class FuseMount
{
public:
    // Mounts an empty FUSE filesystem with fusermount3's `options` on a new private folder.
    // Until the descriptor from device() is served, any access to it waits.
    explicit FuseMount(const QStringList &options);
    ~FuseMount(); // unmount()
    FuseMount(const FuseMount &) = delete;
    FuseMount &operator=(const FuseMount &) = delete;

    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    QString mountPoint() const { return m_mountPoint; } // absolute, without links
    // The /dev/fuse descriptor the kernel sends the mount's requests to (close-on-exec). It
    // stays this object's until takeDevice() hands it to whoever closes it (libfuse's session).
    int device() const { return m_device; }
    int takeDevice();

    // Closes the device if still held (every later access fails instead of waiting) and lets
    // the keeper unmount lazily and remove the folders. Idempotent; false with *error when the
    // folder is still a mount point afterwards.
    bool unmount(QString *error = nullptr);

private:
    bool makeFolders();
    bool startKeeper(const QString &program);
    bool receiveDevice(int socket, pid_t helper, int output);

    QString m_folder;     // private, 0700
    QString m_mountPoint; // m_folder/fuse
    QString m_error;
    int m_device = -1;
    int m_keeperPipe = -1; // its writing end: closing it unmounts
    pid_t m_keeper = -1;
};

} // namespace partwise
