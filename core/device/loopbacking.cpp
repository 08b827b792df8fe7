#include "device/loopbacking.h"

#include "device/sysfsline.h"

#include <QDir>
#include <QFile>

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

bool LoopBacking::shows(const struct stat &st, const QString &canonicalPath) const
{
    if (!identified)
        return !canonicalPath.isEmpty() && path == canonicalPath;
    if (S_ISBLK(st.st_mode))
        return blockDevice != 0 && blockDevice == st.st_rdev;
    return blockDevice == 0 && fileSystem == st.st_dev && inode == st.st_ino;
}

std::optional<LoopBacking> loopBackingOf(const QString &name, const QList<MountEntry> &mounts)
{
    LoopBacking b;
    b.loop = QStringLiteral("/dev/") + name;
    b.path = sysfsLine(QStringLiteral("/sys/block/%1/loop/backing_file").arg(name));
    if (b.path.isEmpty())
        return std::nullopt;
    if (const MountEntry *mount = mountHolding(mounts, b.path); mount && mayStall(*mount))
        return b;
    const int fd = ::open(QFile::encodeName(b.loop).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return b;
    loop_info64 info{};
    b.identified = ::ioctl(fd, LOOP_GET_STATUS64, &info) == 0;
    ::close(fd);
    if (b.identified) {
        // The kernel encodes these as stat() does st_dev and st_rdev.
        b.fileSystem = dev_t(info.lo_device);
        b.inode = ino_t(info.lo_inode);
        b.blockDevice = dev_t(info.lo_rdevice);
    }
    return b;
}

QList<LoopBacking> loopBackings(const QList<MountEntry> &mounts)
{
    QList<LoopBacking> out;
    const QDir block(QStringLiteral("/sys/block"));
    for (const QString &name : block.entryList({QStringLiteral("loop*")}, QDir::Dirs))
        if (const std::optional<LoopBacking> b = loopBackingOf(name, mounts))
            out << *b;
    return out;
}

} // namespace partwise
