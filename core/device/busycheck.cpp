#include "device/busycheck.h"

#include "base/mounttable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace partwise {

namespace {

QString readLine(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(f.readLine()).trimmed() : QString();
}

// Loop devices whose backing file is `image` ("/dev/loop3"), found through sysfs.
QStringList loopDevicesOf(const QString &image)
{
    const QString canonical = QFileInfo(image).canonicalFilePath();
    QStringList out;
    const QDir block(QStringLiteral("/sys/block"));
    for (const QString &name : block.entryList({QStringLiteral("loop*")}, QDir::Dirs)) {
        const QString backing =
            readLine(block.filePath(name + QStringLiteral("/loop/backing_file")));
        if (!backing.isEmpty() && QFileInfo(backing).canonicalFilePath() == canonical)
            out << QStringLiteral("/dev/") + name;
    }
    return out;
}

// The kernel names of a disk's partitions: "sdb1", "loop3p2", "nvme0n1p1", with their numbers.
QList<QPair<QString, int>> partitionsOf(const QString &diskName)
{
    QList<QPair<QString, int>> out;
    const QDir dir(QStringLiteral("/sys/block/") + diskName);
    for (const QString &entry : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString partFile = dir.filePath(entry + QStringLiteral("/partition"));
        if (QFile::exists(partFile))
            out << qMakePair(entry, readLine(partFile).toInt());
    }
    return out;
}

QString devNumber(const QString &sysName, const QString &diskName)
{
    const QString base = sysName == diskName
                             ? QStringLiteral("/sys/block/%1/dev").arg(diskName)
                             : QStringLiteral("/sys/block/%1/%2/dev").arg(diskName, sysName);
    return readLine(base);
}

// `majorMinor` as sysfs gives it ("8:1").
QStringList mountsOf(const QString &majorMinor, const QString &node)
{
    QStringList out;
    bool okMajor = false;
    bool okMinor = false;
    const unsigned major = majorMinor.section(QLatin1Char(':'), 0, 0).toUInt(&okMajor);
    const unsigned minor = majorMinor.section(QLatin1Char(':'), 1, 1).toUInt(&okMinor);
    if (!okMajor || !okMinor)
        return out;
    const dev_t device = makedev(major, minor);
    for (const MountEntry &mount : readMountTable())
        if (mount.device == device)
            out << QStringLiteral("%1 is mounted on %2").arg(node, mount.target);
    return out;
}

bool isSwapOn(const QString &node)
{
    const QString canonical = QFileInfo(node).canonicalFilePath();
    for (const QString &dev : activeSwaps())
        if (!dev.isEmpty() && (dev == node || QFileInfo(dev).canonicalFilePath() == canonical))
            return true;
    return false;
}

QStringList holdersOf(const QString &diskName, const QString &sysName)
{
    const QString path = sysName == diskName
                             ? QStringLiteral("/sys/block/%1/holders").arg(diskName)
                             : QStringLiteral("/sys/block/%1/%2/holders").arg(diskName, sysName);
    return QDir(path).entryList(QDir::NoDotAndDotDot | QDir::AllEntries);
}

QStringList reasonsFor(const QString &diskName, const QString &sysName)
{
    const QString node = QStringLiteral("/dev/") + sysName;
    QStringList out = mountsOf(devNumber(sysName, diskName), node);
    if (isSwapOn(node))
        out << QStringLiteral("%1 is in use as swap").arg(node);
    for (const QString &holder : holdersOf(diskName, sysName))
        out << QStringLiteral("%1 is held by %2 (LVM, RAID or encryption)").arg(node, holder);
    return out;
}

QStringList busyReasonsOfDisk(const QString &diskNode, int number)
{
    const QString diskName = QFileInfo(diskNode).canonicalFilePath().section(QLatin1Char('/'), -1);
    QStringList out;
    if (number == 0)
        out << reasonsFor(diskName, diskName);
    for (const auto &[sysName, n] : partitionsOf(diskName))
        if (number == 0 || n == number)
            out << reasonsFor(diskName, sysName);
    return out;
}

} // namespace

QStringList busyReasons(const QString &diskPath, int partitionNumber)
{
    struct stat st
    {
    };
    if (::stat(diskPath.toLocal8Bit().constData(), &st) != 0)
        return {};
    if (S_ISBLK(st.st_mode))
        return busyReasonsOfDisk(diskPath, partitionNumber);
    QStringList out;
    for (const QString &loop : loopDevicesOf(diskPath)) {
        // A partition-less loop device at an offset may show just one partition; any use of a
        // loop device over the image counts as holding it.
        const QStringList reasons = busyReasonsOfDisk(loop, partitionNumber);
        for (const QString &r : reasons)
            out << QStringLiteral("%1 (a loop device over %2)").arg(r, diskPath);
    }
    return out;
}

} // namespace partwise
