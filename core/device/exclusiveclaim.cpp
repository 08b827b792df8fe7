#include "device/exclusiveclaim.h"

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

bool ExclusiveClaim::takeForTableWrite(const QString &path, QString *why)
{
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISBLK(st.st_mode) &&
        QFileInfo::exists(QStringLiteral("/sys/dev/block/%1:%2/dm")
                              .arg(major(st.st_rdev))
                              .arg(minor(st.st_rdev))))
        return true;
    return take(path, why);
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
    m_fd = ::open(name.constData(), O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
    if (m_fd >= 0)
        return true;
    const int code = errno;
    *why = code == EBUSY ? QStringLiteral(
                               "%1 is in use: it, or a partition of it, was mounted, swapped on or "
                               "claimed by another program since Partwise checked it (%2)")
                               .arg(path, QString::fromLocal8Bit(std::strerror(code)))
                         : QStringLiteral("Cannot claim %1 for this job alone: %2")
                               .arg(path, QString::fromLocal8Bit(std::strerror(code)));
    return false;
}

} // namespace partwise
