#include "device/sourcehold.h"

#include "device/loopbacking.h"
#include "device/sysfsline.h"

#include "base/mounttable.h"
#include "base/nofollowfile.h"

#include <QFile>
#include <QFileInfo>

#include <ctime>
#include <fcntl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

bool sameTime(const struct timespec &a, const struct timespec &b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

bool sameFile(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
           sameTime(a.st_mtim, b.st_mtim) && sameTime(a.st_ctim, b.st_ctim);
}

// Written within the last second or two: a later write in the same clock tick would not move
// the times.
bool recentlyWritten(const struct stat &st)
{
    struct timespec now;
    ::clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec - std::max(st.st_mtim.tv_sec, st.st_ctim.tv_sec) < 2;
}

// The sectors the kernel has written and discarded on the device, from its sysfs stat (fields
// 7 and 14, Documentation/block/stat.rst: a line of counters, which no library reads for us);
// empty when it cannot be read. Sectors, not requests: a device's fsync is an empty write
// request (libparted syncs every disk it opens, and a loop device passes its flushes on to
// the device under it), which changes nothing on the disk but counts as a write.
QString writeCounts(const QString &statPath)
{
    const QStringList fields = sysfsLine(statPath).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (fields.size() < 14)
        return QString();
    return fields.at(6) + QLatin1Char('/') + fields.at(13);
}

QString sysfsFolderOf(dev_t device)
{
    return QStringLiteral("/sys/dev/block/%1:%2").arg(major(device)).arg(minor(device));
}

} // namespace

std::shared_ptr<const SourceHold> SourceHold::take(const QString &path, Claim claim)
{
    const QByteArray name = QFile::encodeName(path);
    struct stat st;
    if (::stat(name.constData(), &st) != 0)
        return nullptr;
    std::shared_ptr<SourceHold> hold(new SourceHold);
    if (S_ISREG(st.st_mode)) {
        // The file itself from now on, whatever its name comes to name.
        const int fd = ::open(name.constData(), O_PATH | O_CLOEXEC);
        struct stat opened;
        if (fd < 0 || ::fstat(fd, &opened) != 0 || opened.st_dev != st.st_dev ||
            opened.st_ino != st.st_ino) {
            if (fd >= 0)
                ::close(fd);
            return nullptr;
        }
        return hold->holdFile(fd, opened) ? hold : nullptr;
    }
    if (!S_ISBLK(st.st_mode))
        return nullptr;
    struct stat claimed = st;
    if (claim == Claim::Exclusive) {
        hold->m_claim = ::open(name.constData(), O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
        // The device claimed must be the one named: the name may have been given to another
        // between the stat and the open.
        if (hold->m_claim < 0 || ::fstat(hold->m_claim, &claimed) != 0 ||
            claimed.st_rdev != st.st_rdev)
            return nullptr;
    }
    if (!hold->holdCounts(claimed.st_rdev))
        return nullptr;
    // A loop device shows its backing file, or another device, which may be written without
    // going through it. Known by the kernel's numbers (device/loopbacking.h), and held by a
    // descriptor of the very file, reached without following a link: its name in sysfs may by
    // now be someone else's.
    const QString loopName =
        QFileInfo(sysfsFolderOf(claimed.st_rdev)).canonicalFilePath().section(QLatin1Char('/'), -1);
    const std::optional<LoopBacking> backing = loopBackingOf(loopName, readMountTable());
    if (!backing)
        return hold;
    if (!backing->identified)
        return nullptr;
    if (backing->blockDevice != 0)
        return hold->holdCounts(backing->blockDevice) ? hold : nullptr;
    bool stable = false; // whoever may rename the path, the kernel's numbers decide below
    const int fd = openPathNoFollow(backing->path, &stable);
    struct stat under;
    if (fd < 0 || ::fstat(fd, &under) != 0 || under.st_dev != backing->fileSystem ||
        under.st_ino != backing->inode) {
        if (fd >= 0)
            ::close(fd);
        return nullptr;
    }
    return hold->holdFile(fd, under) ? hold : nullptr;
}

bool SourceHold::holdFile(int fd, const struct stat &st)
{
    if (!S_ISREG(st.st_mode) || recentlyWritten(st)) {
        ::close(fd);
        return false;
    }
    m_file.reset(new FileState{fd, st});
    return true;
}

bool SourceHold::holdCounts(dev_t device)
{
    const QString path = sysfsFolderOf(device) + QStringLiteral("/stat");
    const QString counts = writeCounts(path);
    if (counts.isEmpty())
        return false;
    m_counts.push_back({path, counts});
    return true;
}

SourceHold::FileState::~FileState()
{
    if (fd >= 0)
        ::close(fd);
}

SourceHold::~SourceHold()
{
    if (m_claim >= 0)
        ::close(m_claim);
}

bool SourceHold::unchanged() const
{
    if (m_file) {
        struct stat now;
        if (::fstat(m_file->fd, &now) != 0 || !sameFile(now, m_file->st))
            return false;
    }
    for (const auto &[path, counts] : m_counts)
        if (writeCounts(path) != counts)
            return false;
    return true;
}

} // namespace partwise
