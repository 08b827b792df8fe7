#pragma once

#include <QByteArray>
#include <QString>

#include <sys/types.h>

namespace partwise {

// A disk or disk image opened once, by its name, at the entry point (a command, the helper, the
// window's disk service): every later read goes through this descriptor, so the name is looked
// up one time and what is read cannot be swapped underneath. Libraries and tools that want a
// name get ioPath(), the descriptor's /proc/self/fd entry, which reaches the same open file.
// Read-only; a job's writes take their own claim (device/exclusiveclaim.h).
class OpenDisk
{
public:
    OpenDisk() = default;
    ~OpenDisk();
    OpenDisk(const OpenDisk &) = delete;
    OpenDisk &operator=(const OpenDisk &) = delete;

    // Opens `path` for reading without blocking on a FIFO and judges what it opened. False with
    // a sentence a person can act on: missing, a folder, not a disk, empty, or not readable
    // (then accessDenied() is true).
    bool open(const QString &path, QString *error);
    // The same for a file a path walk already found (`pathFd`, an O_PATH descriptor such as
    // base/nofollowfile.h gives): reopened through it, so `name` is not looked up again.
    bool openFrom(int pathFd, const QString &name, QString *error);

    bool isOpen() const { return m_fd >= 0; }
    int fd() const { return m_fd; }
    const QString &path() const { return m_path; } // the name, for people and for sysfs
    QString ioPath() const;                        // "/proc/self/fd/N"
    bool isImage() const { return m_image; }
    bool readOnly() const { return m_readOnly; } // write-protected, or not writable by us
    bool accessDenied() const { return m_accessDenied; }
    qint64 sizeBytes() const { return m_size; }
    // What the kernel reports for a block device; 0 for an image (its contents tell).
    qint64 logicalSectorSize() const { return m_logical; }
    qint64 physicalSectorSize() const { return m_physical; }
    dev_t device() const { return m_dev; }
    ino_t inode() const { return m_ino; }
    dev_t rdev() const { return m_rdev; }

    // Whether the name still leads to the file opened (device, inode and, for a block device,
    // its number): a cheap look before a step that goes by name again.
    bool stillNamed(QString *why) const;
    // Whether `name` leads to the file opened (libparted opens the disk by its own name).
    bool isNamed(const QString &name, QString *why) const;
    // Forgets what the kernel caches of the whole disk, so the next read sees what was written
    // through a partition's node or another descriptor (each node has a cache of its own).
    void dropCache() const;
    // `length` bytes at `offset` through the descriptor; false with the system's reason.
    bool readAt(qint64 offset, qint64 length, QByteArray *out, QString *why) const;

private:
    bool openNamed(const QByteArray &openName, const QString &path, QString *error);
    bool judge(QString *error);

    QString m_path;
    int m_fd = -1;
    bool m_image = false;
    bool m_readOnly = false;
    bool m_accessDenied = false;
    qint64 m_size = 0;
    qint64 m_logical = 0;
    qint64 m_physical = 0;
    dev_t m_dev = 0;
    ino_t m_ino = 0;
    dev_t m_rdev = 0;
};

} // namespace partwise
