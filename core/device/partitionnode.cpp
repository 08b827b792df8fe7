#include "device/partitionnode.h"

#include "device/kernelpartitions.h"
#include "device/sysfsline.h"

#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace partwise {

namespace {

bool deviceNumber(const QString &folder, dev_t *out)
{
    const QStringList dev = sysfsLine(folder + QStringLiteral("/dev")).split(QLatin1Char(':'));
    bool okMajor = false;
    bool okMinor = false;
    const unsigned maj = dev.value(0).toUInt(&okMajor);
    const unsigned min = dev.value(1).toUInt(&okMinor);
    if (!okMajor || !okMinor)
        return false;
    *out = makedev(maj, min);
    return true;
}

} // namespace

bool findPartitionNode(const QString &diskPath, int number, PartitionNode *out, QString *why)
{
    struct stat st;
    if (::stat(QFile::encodeName(diskPath).constData(), &st) != 0 || !S_ISBLK(st.st_mode)) {
        *why = QStringLiteral("%1 is not a block device").arg(diskPath);
        return false;
    }
    const QString folder =
        QFileInfo(
            QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev)))
            .canonicalFilePath();
    if (folder.isEmpty() || QFile::exists(folder + QStringLiteral("/partition"))) {
        *why = QStringLiteral("%1 is not a whole disk; name the disk and the partition's number")
                   .arg(diskPath);
        return false;
    }
    for (const KernelPartitionPlace &k : kernelPartitionPlaces(folder)) {
        if (k.number != number)
            continue;
        dev_t device = 0;
        if (!deviceNumber(k.sysfsFolder, &device))
            break;
        const QString node = QStringLiteral("/dev/") + k.sysfsFolder.section(QLatin1Char('/'), -1);
        struct stat nodeStat;
        if (::lstat(QFile::encodeName(node).constData(), &nodeStat) != 0 ||
            !S_ISBLK(nodeStat.st_mode) || nodeStat.st_rdev != device) {
            *why = QStringLiteral("the kernel knows partition %1 of %2, but %3 is not its device")
                       .arg(number)
                       .arg(diskPath, node);
            return false;
        }
        *out = PartitionNode{node, device, k.startBytes, k.sizeBytes};
        return true;
    }
    *why = QStringLiteral("the kernel knows no partition %1 of %2").arg(number).arg(diskPath);
    return false;
}

} // namespace partwise
