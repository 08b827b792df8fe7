#include "device/kernelpartitions.h"

#include "device/sysfsline.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace partwise {

namespace {

// sysfs counts in 512-byte units whatever the disk's logical sector size.
qint64 bytesAt(const QString &path)
{
    bool ok = false;
    const qint64 units = sysfsLine(path).toLongLong(&ok);
    return ok ? units * 512 : -1;
}

} // namespace

QList<KernelPartitionPlace> kernelPartitionPlaces(const QString &diskFolder)
{
    QList<KernelPartitionPlace> out;
    if (diskFolder.isEmpty() || QFile::exists(diskFolder + QStringLiteral("/partition")))
        return out;
    const QDir dir(diskFolder);
    for (const QString &entry : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString folder = dir.filePath(entry);
        bool ok = false;
        const int number = sysfsLine(folder + QStringLiteral("/partition")).toInt(&ok);
        if (!ok || number <= 0)
            continue;
        out << KernelPartitionPlace{number, bytesAt(folder + QStringLiteral("/start")),
                                    bytesAt(folder + QStringLiteral("/size")), folder};
    }
    return out;
}

QList<KernelPartitionPlace> kernelPartitionPlacesOfDisk(const QString &diskPath)
{
    struct stat st;
    if (::stat(QFile::encodeName(diskPath).constData(), &st) != 0 || !S_ISBLK(st.st_mode))
        return {};
    return kernelPartitionPlaces(
        QFileInfo(
            QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev)))
            .canonicalFilePath());
}

} // namespace partwise
