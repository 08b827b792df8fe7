#include "device/diskwritelock.h"

#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QThread>

#include <mutex>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

// The disks this process holds locked, by what they are (a block device's number, an image's
// inode), for whileUdevLooks.
std::mutex g_heldMutex;
QMap<QPair<dev_t, ino_t>, int> g_held;

QPair<dev_t, ino_t> keyOf(const struct stat &st)
{
    return S_ISBLK(st.st_mode) ? qMakePair(st.st_rdev, ino_t(0)) : qMakePair(st.st_dev, st.st_ino);
}

bool lockWithin(int fd, int waitMilliseconds)
{
    QElapsedTimer waited;
    waited.start();
    int result;
    while ((result = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 &&
           (errno == EWOULDBLOCK || errno == EINTR) && waited.elapsed() < waitMilliseconds)
        QThread::msleep(50);
    return result == 0;
}

} // namespace

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
    if (!lockWithin(fd, waitMilliseconds)) {
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
    struct stat st;
    if (::fstat(fd, &st) == 0) {
        const std::lock_guard lock(g_heldMutex);
        g_held.insert(keyOf(st), fd);
    }
}

bool DiskWriteLock::whileUdevLooks(const QString &target, const std::function<void()> &work)
{
    struct stat st;
    int fd = -1;
    if (::stat(QFile::encodeName(target).constData(), &st) == 0) {
        const std::lock_guard lock(g_heldMutex);
        fd = g_held.value(keyOf(st), -1);
    }
    if (fd >= 0)
        ::flock(fd, LOCK_UN);
    work();
    // udev may hold it shared for a moment while it probes what changed.
    return fd < 0 || lockWithin(fd, 60000);
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
    if (m_fd >= 0) {
        const std::lock_guard lock(g_heldMutex);
        for (auto it = g_held.begin(); it != g_held.end();)
            it = it.value() == m_fd ? g_held.erase(it) : std::next(it);
    }
    if (m_fd >= 0)
        ::close(m_fd); // closing the last descriptor releases the lock
}

} // namespace partwise
