#include "fuseaccess.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace pwtest {

namespace {
constexpr char kDevice[] = "/dev/fuse";
} // namespace

FuseOpenToUsers::FuseOpenToUsers()
{
    struct stat st
    {
    };
    if (::stat(kDevice, &st) != 0 || !S_ISCHR(st.st_mode)) {
        m_error = QStringLiteral("%1 is missing: the kernel has no FUSE here.")
                      .arg(QLatin1String(kDevice));
        return;
    }
    m_oldMode = st.st_mode & 07777;
    if (m_oldMode == 0666)
        return;
    if (::chmod(kDevice, 0666) != 0) {
        m_error = QStringLiteral("chmod 0666 %1: %2")
                      .arg(QLatin1String(kDevice), QString::fromLocal8Bit(std::strerror(errno)));
        return;
    }
    m_changed = true;
}

FuseOpenToUsers::~FuseOpenToUsers()
{
    if (m_changed)
        ::chmod(kDevice, m_oldMode);
}

} // namespace pwtest
