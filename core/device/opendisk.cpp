#include "device/opendisk.h"

#include "base/positionedio.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

QString systemReason(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

} // namespace

OpenDisk::~OpenDisk()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

QString OpenDisk::ioPath() const
{
    return QStringLiteral("/proc/self/fd/%1").arg(m_fd);
}

bool OpenDisk::open(const QString &path, QString *error)
{
    return openNamed(QFile::encodeName(path), path, error);
}

bool OpenDisk::openFrom(int pathFd, const QString &name, QString *error)
{
    return openNamed(QStringLiteral("/proc/self/fd/%1").arg(pathFd).toLatin1(), name, error);
}

bool OpenDisk::openNamed(const QByteArray &openName, const QString &path, QString *error)
{
    m_path = path;
    // Non-blocking: a FIFO given as a disk must not stall the open; cleared once judged.
    m_fd = ::open(openName.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (m_fd < 0) {
        const int code = errno;
        m_accessDenied = code == EACCES || code == EPERM;
        if (code == ENOENT)
            *error = QStringLiteral("%1 does not exist.").arg(path);
        else if (m_accessDenied)
            *error = QStringLiteral("Permission denied reading %1: run as root (or with sudo) to "
                                    "examine real disks; image files need only read permission.")
                         .arg(path);
        else
            *error = QStringLiteral("Cannot access %1: %2.").arg(path, systemReason(code));
        return false;
    }
    if (!judge(error)) {
        ::close(m_fd);
        m_fd = -1;
        return false;
    }
    return true;
}

bool OpenDisk::judge(QString *error)
{
    struct stat st
    {
    };
    if (::fstat(m_fd, &st) != 0) {
        *error = QStringLiteral("Cannot access %1: %2.").arg(m_path, systemReason(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        *error = QStringLiteral("%1 is a folder, not a disk or disk image.").arg(m_path);
        return false;
    }
    m_image = S_ISREG(st.st_mode);
    if (!m_image && !S_ISBLK(st.st_mode)) {
        *error = QStringLiteral("%1 is neither a block device nor a disk image file.").arg(m_path);
        return false;
    }
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) & ~O_NONBLOCK);
    m_dev = st.st_dev;
    m_ino = st.st_ino;
    m_rdev = st.st_rdev;
    m_size = st.st_size;
    // Whether we may write is asked of the inode behind the descriptor, not of the name again.
    m_readOnly = ::access(QFile::encodeName(ioPath()).constData(), W_OK) != 0;
    if (!m_image) {
        quint64 bytes = 0;
        int logical = 0;
        unsigned int physical = 0;
        int ro = 0;
        if (::ioctl(m_fd, BLKGETSIZE64, &bytes) == 0)
            m_size = qint64(bytes);
        if (::ioctl(m_fd, BLKSSZGET, &logical) == 0)
            m_logical = logical;
        if (::ioctl(m_fd, BLKPBSZGET, &physical) == 0)
            m_physical = physical;
        if (::ioctl(m_fd, BLKROGET, &ro) == 0 && ro != 0)
            m_readOnly = true;
    }
    if (m_image && m_size == 0) {
        *error =
            QStringLiteral("%1 is empty (0 bytes): there is no disk in it to read.").arg(m_path);
        return false;
    }
    return true;
}

bool OpenDisk::stillNamed(QString *why) const
{
    return isNamed(m_path, why);
}

bool OpenDisk::isNamed(const QString &name, QString *why) const
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(name).constData(), &st) != 0) {
        *why = QStringLiteral("%1 is gone: %2").arg(name, systemReason(errno));
        return false;
    }
    if (st.st_dev != m_dev || st.st_ino != m_ino || st.st_rdev != m_rdev) {
        *why =
            QStringLiteral("%1 now names another file or device than %2 opened").arg(name, m_path);
        return false;
    }
    return true;
}

void OpenDisk::dropCache() const
{
    ::posix_fadvise(m_fd, 0, 0, POSIX_FADV_DONTNEED);
}

bool OpenDisk::readAt(qint64 offset, qint64 length, QByteArray *out, QString *why) const
{
    out->resize(length);
    const qint64 n = readFullAt(m_fd, out->data(), length, offset);
    if (n == length)
        return true;
    *why = n < 0 ? systemReason(errno)
                 : QStringLiteral("the disk ends before byte %1").arg(offset + length);
    return false;
}

} // namespace partwise
