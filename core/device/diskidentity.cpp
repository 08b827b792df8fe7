#include "device/diskidentity.h"

#include "base/mounttable.h"
#include "device/loopbacking.h"

#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

QString numbers(dev_t device)
{
    return QStringLiteral("%1:%2").arg(major(device)).arg(minor(device));
}

// The drive's own name for itself, from the kernel's sysfs folder of the block device.
QString driveName(dev_t device)
{
    const QString folder = QStringLiteral("/sys/dev/block/") + numbers(device);
    for (const char *file : {"wwid", "device/wwid", "device/serial", "serial"}) {
        QFile f(folder + QLatin1Char('/') + QLatin1String(file));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromLatin1(f.read(256)).simplified();
        if (!text.isEmpty())
            return QStringLiteral("drive %1").arg(text);
    }
    return QStringLiteral("device %1").arg(numbers(device));
}

QString loopName(dev_t device)
{
    const QString name =
        QFileInfo(
            QFileInfo(QStringLiteral("/sys/dev/block/") + numbers(device)).canonicalFilePath())
            .fileName();
    return name.startsWith(QLatin1String("loop")) ? name : QString();
}

QString blockIdentity(dev_t device)
{
    const QString loop = loopName(device);
    if (loop.isEmpty())
        return driveName(device);
    const std::optional<LoopBacking> backing = loopBackingOf(loop, readMountTable());
    if (!backing || !backing->identified)
        return {}; // unbound, or the kernel did not say what it shows
    if (backing->blockDevice != 0)
        return QStringLiteral("loop over ") + driveName(backing->blockDevice);
    return QStringLiteral("loop over file %1 inode %2")
        .arg(numbers(backing->fileSystem))
        .arg(backing->inode);
}

} // namespace

QString diskIdentityOf(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return {};
    struct stat st;
    quint64 bytes = 0;
    QString identity;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        identity = QStringLiteral("file %1 inode %2").arg(numbers(st.st_dev)).arg(st.st_ino);
        bytes = quint64(st.st_size);
    } else if (S_ISBLK(st.st_mode) && ::ioctl(fd, BLKGETSIZE64, &bytes) == 0) {
        identity = blockIdentity(st.st_rdev);
    }
    ::close(fd);
    return identity.isEmpty() ? QString() : identity + QStringLiteral(", %1 bytes").arg(bytes);
}

bool isSameDisk(const QString &recorded, const QString &path, QString *why)
{
    const QString now = diskIdentityOf(path);
    if (!recorded.isEmpty() && recorded == now)
        return true;
    *why = recorded.isEmpty()
               ? QStringLiteral("the journal does not say which disk it was written for")
           : now.isEmpty()
               ? QStringLiteral("what %1 is cannot be told now (it was: %2)").arg(path, recorded)
               : QStringLiteral("it was written for another disk (%1), and %2 is now %3")
                     .arg(recorded, path, now);
    return false;
}

} // namespace partwise
