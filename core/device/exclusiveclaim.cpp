#include "device/exclusiveclaim.h"

#include "device/opendisk.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

ExclusiveClaim::~ExclusiveClaim()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

namespace {

// Whether the block device numbered `rdev` is a device-mapper disk (multipath, dmraid).
bool isMapperDisk(dev_t rdev)
{
    return QFileInfo::exists(
        QStringLiteral("/sys/dev/block/%1:%2/dm").arg(major(rdev)).arg(minor(rdev)));
}

} // namespace

bool ExclusiveClaim::takeForTableWrite(const QString &path, QString *why)
{
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISBLK(st.st_mode) &&
        isMapperDisk(st.st_rdev))
        return true;
    return take(path, why);
}

bool ExclusiveClaim::takeForTableWrite(const OpenDisk &disk, QString *why)
{
    if (!disk.isImage() && isMapperDisk(disk.rdev()))
        return true;
    return take(disk, why);
}

bool ExclusiveClaim::take(const QString &path, QString *why)
{
    if (m_fd >= 0)
        return true;
    const QByteArray name = QFile::encodeName(path);
    struct stat st;
    // O_EXCL without O_CREAT means something only for block devices.
    if (::stat(name.constData(), &st) != 0 || !S_ISBLK(st.st_mode))
        return true;
    return claim(name, path, why);
}

bool ExclusiveClaim::take(const OpenDisk &disk, QString *why)
{
    if (m_fd >= 0 || disk.isImage())
        return true;
    // The descriptor's /proc/self/fd entry reaches the device opened, whatever its name now leads
    // to.
    return claim(QFile::encodeName(disk.ioPath()), disk.path(), why);
}

bool ExclusiveClaim::claim(const QByteArray &openName, const QString &shown, QString *why)
{
    m_fd = ::open(openName.constData(), O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
    if (m_fd >= 0)
        return true;
    const int code = errno;
    *why = code == EBUSY ? QStringLiteral(
                               "%1 is in use: it, or a partition of it, was mounted, swapped on or "
                               "claimed by another program since Partwise checked it (%2)")
                               .arg(shown, QString::fromLocal8Bit(std::strerror(code)))
                         : QStringLiteral("Cannot claim %1 for this job alone: %2")
                               .arg(shown, QString::fromLocal8Bit(std::strerror(code)));
    return false;
}

} // namespace partwise
