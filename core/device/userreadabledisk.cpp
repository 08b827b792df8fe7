#include "device/userreadabledisk.h"

#include "base/mounttable.h"
#include "base/userfileread.h"
#include "device/loopbacking.h"

#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace partwise {

namespace {

QString sysfsFolder(dev_t device)
{
    return QFileInfo(QStringLiteral("/sys/dev/block/%1:%2").arg(major(device)).arg(minor(device)))
        .canonicalFilePath();
}

// The kernel's name of the whole disk `device` is (or is a partition of): "loop3", "sda".
QString wholeDiskName(dev_t device)
{
    const QString folder = sysfsFolder(device);
    if (folder.isEmpty())
        return {};
    const bool partition = QFileInfo::exists(folder + QStringLiteral("/partition"));
    return QFileInfo(partition ? QFileInfo(folder).absolutePath() : folder).fileName();
}

bool userOpensDevice(const QString &path, dev_t device, uid_t uid)
{
    struct stat st;
    QString ignored;
    return openedByUser(path, uid, &st, &ignored) && S_ISBLK(st.st_mode) && st.st_rdev == device;
}

// A loop device's bytes are its backing file's: the user may read them when they may open that
// very file (the inode the kernel holds) or block device.
bool userReadsLoopBacking(const QString &loopName, uid_t uid)
{
    const std::optional<LoopBacking> backing = loopBackingOf(loopName, readMountTable());
    if (!backing || !backing->identified)
        return false; // what it shows is not known: nothing is handed over
    if (backing->blockDevice != 0)
        return userOpensDevice(QStringLiteral("/dev/block/%1:%2")
                                   .arg(major(backing->blockDevice))
                                   .arg(minor(backing->blockDevice)),
                               backing->blockDevice, uid);
    struct stat st;
    QString ignored;
    return !backing->path.isEmpty() && openedByUser(backing->path, uid, &st, &ignored) &&
           S_ISREG(st.st_mode) && st.st_dev == backing->fileSystem && st.st_ino == backing->inode;
}

} // namespace

bool userMayReadDisk(const QString &disk, uid_t uid, QString *why)
{
    struct stat st;
    if (::stat(QFile::encodeName(disk).constData(), &st) != 0 || !S_ISBLK(st.st_mode)) {
        *why = QStringLiteral("%1 is not a disk").arg(disk.left(200));
        return false;
    }
    if (userOpensDevice(disk, st.st_rdev, uid))
        return true;
    const QString whole = wholeDiskName(st.st_rdev);
    if (whole.startsWith(QLatin1String("loop")) && userReadsLoopBacking(whole, uid))
        return true;
    *why = QStringLiteral("you may not read %1 yourself (it is not your image file, and its "
                          "device is open to root and the disk group only), so the "
                          "administrator's helper does not hand its contents to you")
               .arg(disk.left(200));
    return false;
}

} // namespace partwise
