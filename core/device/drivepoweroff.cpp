#include "device/drivepoweroff.h"

#include "device/busycheck.h"
#include "device/diskwritelock.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

// The kernel's name of a whole disk ("sdb"), or empty when `diskPath` is no whole disk.
QString wholeDiskName(const QString &diskPath)
{
    struct stat st;
    if (::stat(QFile::encodeName(diskPath).constData(), &st) != 0 || !S_ISBLK(st.st_mode))
        return {};
    const QString sysfs =
        QFileInfo(
            QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev)))
            .canonicalFilePath();
    if (sysfs.isEmpty() || QFile::exists(sysfs + QStringLiteral("/partition")))
        return {};
    return QFileInfo(sysfs).fileName();
}

// The USB device (a folder of /sys/devices with idVendor) the disk hangs from.
QString usbDeviceOf(const QString &diskName)
{
    QString dir =
        QFileInfo(QStringLiteral("/sys/block/%1/device").arg(diskName)).canonicalFilePath();
    while (dir.startsWith(QLatin1String("/sys/devices/")) && dir.contains(QLatin1String("/usb"))) {
        if (QFile::exists(dir + QStringLiteral("/idVendor")))
            return dir;
        dir = QFileInfo(dir).path();
    }
    return {};
}

bool writeSysfs(const QString &path, QString *error)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    const bool ok = fd >= 0 && ::write(fd, "1", 1) == 1;
    const int saved = errno;
    if (fd >= 0)
        ::close(fd);
    if (!ok)
        *error = QStringLiteral("Cannot write %1: %2").arg(path, qt_error_string(saved));
    return ok;
}

// Flushes what the kernel and the drive hold for the disk, while claiming it exclusively: a
// claim that fails means something took the disk since the check.
bool flushClaimed(const QString &diskPath, QString *error)
{
    const int fd = ::open(QFile::encodeName(diskPath).constData(), O_RDONLY | O_CLOEXEC | O_EXCL);
    if (fd < 0) {
        *error = errno == EBUSY
                     ? QStringLiteral("%1 is in use.").arg(diskPath)
                     : QStringLiteral("Cannot open %1: %2").arg(diskPath, qt_error_string(errno));
        return false;
    }
    const bool ok = ::fsync(fd) == 0 && ::ioctl(fd, BLKFLSBUF, 0) == 0;
    const int saved = errno;
    ::close(fd);
    if (!ok)
        *error = QStringLiteral("Cannot flush %1: %2").arg(diskPath, qt_error_string(saved));
    return ok;
}

} // namespace

bool canPowerOff(const QString &diskPath, QString *why)
{
    const QString name = wholeDiskName(diskPath);
    if (name.isEmpty()) {
        *why = QStringLiteral("%1 is not a whole disk.").arg(diskPath);
        return false;
    }
    if (usbDeviceOf(name).isEmpty()) {
        *why =
            QStringLiteral("%1 is not a USB drive; only USB drives are powered off.").arg(diskPath);
        return false;
    }
    return true;
}

PowerOffResult powerOffDrive(const QString &diskPath)
{
    PowerOffResult result;
    result.refused = true;
    if (!canPowerOff(diskPath, &result.error))
        return result;
    if (DiskWriteLock::heldByAJob(diskPath)) {
        result.error = QStringLiteral("A realignment, Apply or copy is writing %1.").arg(diskPath);
        return result;
    }
    result.busy = busyReasons(diskPath, 0);
    if (!result.busy.isEmpty()) {
        result.error = QStringLiteral("%1 is in use: %2.")
                           .arg(diskPath, result.busy.join(QStringLiteral("; ")));
        return result;
    }
    if (!flushClaimed(diskPath, &result.error))
        return result;
    result.refused = false;
    const QString name = wholeDiskName(diskPath);
    const QString usb = usbDeviceOf(name);
    const QString scsiDelete =
        QFileInfo(QStringLiteral("/sys/block/%1/device").arg(name)).canonicalFilePath() +
        QStringLiteral("/delete");
    if (QFile::exists(scsiDelete) && !writeSysfs(scsiDelete, &result.error))
        return result;
    // Without a "remove" (older kernels) the disk is let go of all the same; the port stays on.
    const QString remove = usb + QStringLiteral("/remove");
    result.ok = !QFile::exists(remove) || writeSysfs(remove, &result.error);
    return result;
}

} // namespace partwise
