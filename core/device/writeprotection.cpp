#include "device/writeprotection.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

bool isWriteProtected(const QString &target)
{
    const QByteArray path = target.toLocal8Bit();
    if (::access(path.constData(), W_OK) != 0)
        return true;
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false; // reading works elsewhere; let the writes report the problem
    struct stat st
    {
    };
    int readOnly = 0;
    const bool isBlock = ::fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
    if (isBlock && ::ioctl(fd, BLKROGET, &readOnly) != 0)
        readOnly = 0;
    ::close(fd);
    return readOnly != 0;
}

} // namespace partwise
