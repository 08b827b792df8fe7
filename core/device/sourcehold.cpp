#include "device/sourcehold.h"

#include <QFile>

#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

bool sameTime(const struct timespec &a, const struct timespec &b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

} // namespace

std::shared_ptr<const SourceHold> SourceHold::take(const QString &path)
{
    const QByteArray name = QFile::encodeName(path);
    struct stat st;
    if (::stat(name.constData(), &st) != 0)
        return nullptr;
    if (S_ISREG(st.st_mode))
        return std::shared_ptr<const SourceHold>(new SourceHold(path, -1, st));
    if (!S_ISBLK(st.st_mode))
        return nullptr;
    const int claim = ::open(name.constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
    if (claim < 0)
        return nullptr;
    // The device claimed must be the one named: the name may have been given to another
    // between the stat and the open.
    struct stat claimed;
    if (::fstat(claim, &claimed) != 0 || claimed.st_rdev != st.st_rdev) {
        ::close(claim);
        return nullptr;
    }
    return std::shared_ptr<const SourceHold>(new SourceHold(path, claim, claimed));
}

SourceHold::SourceHold(QString path, int claim, const struct stat &st)
    : m_path(std::move(path)), m_claim(claim), m_stat(st)
{
}

SourceHold::~SourceHold()
{
    if (m_claim >= 0)
        ::close(m_claim);
}

bool SourceHold::unchanged() const
{
    struct stat now;
    if (::stat(QFile::encodeName(m_path).constData(), &now) != 0)
        return false;
    if (m_claim >= 0)
        return S_ISBLK(now.st_mode) && now.st_rdev == m_stat.st_rdev;
    return S_ISREG(now.st_mode) && now.st_dev == m_stat.st_dev && now.st_ino == m_stat.st_ino &&
           now.st_size == m_stat.st_size && sameTime(now.st_mtim, m_stat.st_mtim) &&
           sameTime(now.st_ctim, m_stat.st_ctim);
}

} // namespace partwise
