#include "fuseaccess.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace pwtest {

namespace {
constexpr char kDevice[] = "/dev/fuse";
} // namespace

FuseModeWhileTesting::FuseModeWhileTesting(mode_t mode)
{
    struct stat st
    {
    };
    if (::stat(kDevice, &st) != 0 || !S_ISCHR(st.st_mode)) {
        if (mode & 0006)
            m_error = QStringLiteral("%1 is missing: the kernel has no FUSE here.")
                          .arg(QLatin1String(kDevice));
        return; // no FUSE is closed to everyone
    }
    m_oldMode = st.st_mode & 07777;
    if (m_oldMode == mode)
        return;
    if (::chmod(kDevice, mode) != 0) {
        m_error = QStringLiteral("chmod %1 %2: %3")
                      .arg(mode, 4, 8, QLatin1Char('0'))
                      .arg(QLatin1String(kDevice), QString::fromLocal8Bit(std::strerror(errno)));
        return;
    }
    m_changed = true;
}

FuseModeWhileTesting::~FuseModeWhileTesting()
{
    if (m_changed)
        ::chmod(kDevice, m_oldMode);
}

} // namespace pwtest
