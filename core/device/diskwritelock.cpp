#include "device/diskwritelock.h"

#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace partwise {

DiskWriteLock::DiskWriteLock(const QString &target, int waitMilliseconds)
{
    // Read-only is enough to lock, and works on a disk whose writability is checked later
    // with a clearer message. Close-on-exec: the tools a job runs must not inherit the lock.
    const int fd = ::open(QFile::encodeName(target).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        m_error = QStringLiteral("Cannot open %1 to lock it: %2. Nothing was changed.")
                      .arg(target, QString::fromLocal8Bit(std::strerror(errno)));
        return;
    }
    QElapsedTimer waited;
    waited.start();
    int result;
    while ((result = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 &&
           (errno == EWOULDBLOCK || errno == EINTR) && waited.elapsed() < waitMilliseconds)
        QThread::msleep(50);
    if (result != 0) {
        const int code = errno;
        ::close(fd);
        m_error = code == EWOULDBLOCK
                      ? QStringLiteral("Another program is writing to %1: it holds the disk's "
                                       "lock (another Partwise job or resume, or sfdisk or "
                                       "fdisk with --lock). Nothing was changed; try again "
                                       "once it has finished.")
                            .arg(target)
                      : QStringLiteral("Cannot lock %1: %2. Nothing was changed.")
                            .arg(target, QString::fromLocal8Bit(std::strerror(code)));
        return;
    }
    m_fd = fd;
}

bool DiskWriteLock::heldByAJob(const QString &target)
{
    const int fd = ::open(QFile::encodeName(target).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return true;
    int result;
    while ((result = ::flock(fd, LOCK_SH | LOCK_NB)) != 0 && errno == EINTR) {
    }
    ::close(fd); // and with it the shared lock
    return result != 0;
}

DiskWriteLock::~DiskWriteLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // closing the last descriptor releases the lock
}

} // namespace partwise
