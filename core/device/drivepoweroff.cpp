#include "device/drivepoweroff.h"

#include "device/busycheck.h"
#include "device/diskwritelock.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>

#include <cerrno>
#include <vector>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

// The kernel's name of a whole disk ("sdb"), or empty when `diskPath` is no whole disk.
QString wholeDiskName(const QString &diskPath, const QString &sys)
{
    struct stat st;
    if (::stat(QFile::encodeName(diskPath).constData(), &st) != 0 || !S_ISBLK(st.st_mode))
        return {};
    const QString sysfs = QFileInfo(QStringLiteral("%1/dev/block/%2:%3")
                                        .arg(sys)
                                        .arg(major(st.st_rdev))
                                        .arg(minor(st.st_rdev)))
                              .canonicalFilePath();
    if (sysfs.isEmpty() || QFile::exists(sysfs + QStringLiteral("/partition")))
        return {};
    return QFileInfo(sysfs).fileName();
}

// The USB device (a folder of /sys/devices with idVendor) the disk hangs from.
QString usbDeviceOf(const QString &diskName, const QString &sys)
{
    QString dir =
        QFileInfo(QStringLiteral("%1/block/%2/device").arg(sys, diskName)).canonicalFilePath();
    while (dir.startsWith(sys + QStringLiteral("/devices/")) &&
           dir.contains(QLatin1String("/usb"))) {
        if (QFile::exists(dir + QStringLiteral("/idVendor")))
            return dir;
        dir = QFileInfo(dir).path();
    }
    return {};
}

// The device nodes of every whole disk under the USB device `usb`: its "remove" takes them all
// (a card reader's other slots, a multi-bay enclosure's other disks), so each is checked and held.
// Empty, with `error`, when a disk's node in /dev is not that disk.
QStringList disksUnder(const QString &usb, const QString &sys, QString *error)
{
    QStringList nodes;
    QDirIterator it(usb, QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo disk(it.next());
        if (disk.dir().dirName() != QLatin1String("block"))
            continue;
        const QString node = QStringLiteral("/dev/") + disk.fileName();
        if (wholeDiskName(node, sys) != disk.fileName()) {
            *error = QStringLiteral("%1 is not the disk %2 of the USB device.")
                         .arg(node, disk.fileName());
            return {};
        }
        nodes << node;
    }
    nodes.sort();
    return nodes;
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
// claim that fails means something took the disk since the check. The claim (the descriptor,
// or -1) is kept until the drive is gone, so nothing takes the disk in between.
int flushClaimed(const QString &diskPath, QString *error)
{
    const int fd = ::open(QFile::encodeName(diskPath).constData(), O_RDONLY | O_CLOEXEC | O_EXCL);
    if (fd < 0) {
        *error = errno == EBUSY
                     ? QStringLiteral("%1 is in use.").arg(diskPath)
                     : QStringLiteral("Cannot open %1: %2").arg(diskPath, qt_error_string(errno));
        return -1;
    }
    if (::fsync(fd) != 0 || ::ioctl(fd, BLKFLSBUF, 0) != 0) {
        *error = QStringLiteral("Cannot flush %1: %2").arg(diskPath, qt_error_string(errno));
        ::close(fd);
        return -1;
    }
    return fd;
}

// Why one of the USB device's disks may not go, or empty.
QString whyBusy(const QString &disk, const QString &named, QStringList *busy)
{
    const QString also = disk == named
                             ? QString()
                             : QStringLiteral(" (it is on the same USB device as %1)").arg(named);
    if (DiskWriteLock::heldByAJob(disk))
        return QStringLiteral("A realignment, Apply or copy is writing %1%2.").arg(disk, also);
    *busy = busyReasons(disk, 0);
    if (busy->isEmpty())
        return {};
    return QStringLiteral("%1 is in use%2: %3.").arg(disk, also, busy->join(QStringLiteral("; ")));
}

} // namespace

bool canPowerOff(const QString &diskPath, QString *why, const QString &sysRoot)
{
    const QString sys = QFileInfo(sysRoot).canonicalFilePath();
    const QString name = wholeDiskName(diskPath, sys);
    if (name.isEmpty()) {
        *why = QStringLiteral("%1 is not a whole disk.").arg(diskPath);
        return false;
    }
    if (usbDeviceOf(name, sys).isEmpty()) {
        *why =
            QStringLiteral("%1 is not a USB drive; only USB drives are powered off.").arg(diskPath);
        return false;
    }
    return true;
}

PowerOffResult powerOffDrive(const QString &diskPath, const QString &sysRoot)
{
    PowerOffResult result;
    result.refused = true;
    if (!canPowerOff(diskPath, &result.error, sysRoot))
        return result;
    const QString sys = QFileInfo(sysRoot).canonicalFilePath();
    const QString name = wholeDiskName(diskPath, sys);
    const QString usb = usbDeviceOf(name, sys);
    const QString named = QStringLiteral("/dev/") + name;
    QStringList disks = disksUnder(usb, sys, &result.error);
    if (!result.error.isEmpty())
        return result;
    if (!disks.contains(named))
        disks.prepend(named);
    for (const QString &disk : std::as_const(disks))
        if (result.error = whyBusy(disk, named, &result.busy); !result.error.isEmpty())
            return result;
    std::vector<int> claims;
    const auto release = qScopeGuard([&claims] {
        for (const int fd : claims)
            ::close(fd);
    });
    for (const QString &disk : std::as_const(disks)) {
        claims.push_back(flushClaimed(disk, &result.error));
        if (claims.back() < 0)
            return result;
    }
    result.refused = false;
    const QString scsiDelete =
        QFileInfo(QStringLiteral("%1/block/%2/device").arg(sys, name)).canonicalFilePath() +
        QStringLiteral("/delete");
    if (QFile::exists(scsiDelete) && !writeSysfs(scsiDelete, &result.error))
        return result;
    // Without a "remove" (older kernels) the disk is let go of all the same; the port stays on.
    const QString remove = usb + QStringLiteral("/remove");
    result.ok = !QFile::exists(remove) || writeSysfs(remove, &result.error);
    return result;
}

} // namespace partwise
