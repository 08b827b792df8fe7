#include "fs/sessionabilities.h"

#include "device/loopattachment.h"
#include "device/partitionfile.h"
#include "fs/filesystemkinds.h"
#include "fs/filesystemresize.h"

#include <unistd.h>

namespace partwise {

namespace {

// The tools reach a partition inside an image through a node they can write: a loop device
// (root), or the partition served as a file of its own through FUSE.
bool writableNodeInImages()
{
    return loopDevicesAvailable() || partitionFilesAvailable();
}

QString shownName(const QString &fs)
{
    if (isFatFilesystem(fs))
        return QStringLiteral("FAT");
    if (fs == QLatin1String("ntfs") || fs == QLatin1String("xfs"))
        return fs.toUpper();
    return fs;
}

FilesystemAction resizeAction(bool shrink)
{
    return shrink ? FilesystemAction::Shrink : FilesystemAction::Grow;
}

} // namespace

QString imageLimitHere(const QString &fs, FilesystemAction action)
{
    const bool resize = action == FilesystemAction::Shrink || action == FilesystemAction::Grow;
    if (!resize && action != FilesystemAction::Repair)
        return QString(); // read-only work: a loop device, or a scratch copy of the partition
    if (fs.isEmpty() || fs == QLatin1String("swap") || writableNodeInImages())
        return QString();
    if (fs == QLatin1String("btrfs") && resize)
        return QStringLiteral("btrfs is resized while mounted, which only an administrator can "
                              "do");
    const QString what = action == FilesystemAction::Repair ? QStringLiteral("Repairing %1")
                                                            : QStringLiteral("Resizing %1");
    // Two sentences: the reason (a sentence of its own) does not hang off this one's colon.
    return QStringLiteral("%1 inside an image file needs a loop device, which only an "
                          "administrator can create, or the partition as a file through FUSE. %2")
        .arg(what.arg(shownName(fs)), partitionFilesProblem());
}

QString whyCannotShrinkHere(const QString &fs, qint64 newBytes, FilesystemPlace place)
{
    if (fs.isEmpty() || fs == QLatin1String("swap"))
        return QString(); // nothing to shrink: the partition is cut, swap recreated
    if (!filesystemCanShrink(fs))
        return fs == QLatin1String("xfs")
                   ? QStringLiteral("XFS filesystems cannot shrink")
                   : QStringLiteral("Partwise cannot shrink %1 filesystems").arg(shownName(fs));
    if (fs == QLatin1String("btrfs") && newBytes < kBtrfsMinimumBytes)
        return QStringLiteral("btrfs cannot be resized below 256 MiB");
    const SupportCell support = filesystemSupport(fs, resizeAction(true));
    if (!support.missing.isEmpty())
        return QStringLiteral("shrinking %1 needs the package %2, which is not installed")
            .arg(shownName(fs), support.missing.join(QStringLiteral(", ")));
    if (fs == QLatin1String("btrfs") && ::geteuid() != 0)
        return QStringLiteral("btrfs is resized while mounted, which only an administrator can "
                              "do");
    return place == FilesystemPlace::Image ? imageLimitHere(fs, FilesystemAction::Shrink)
                                           : QString();
}

QString whyCannotGrowHere(const QString &fs, FilesystemPlace place)
{
    if (fs.isEmpty() || fs == QLatin1String("swap") || !canGrowUnmounted(fs))
        return QString(); // nothing to grow, or it keeps its size (grown once mounted)
    const SupportCell support = filesystemSupport(fs, resizeAction(false));
    if (!support.missing.isEmpty())
        return QStringLiteral("growing %1 needs the package %2, which is not installed")
            .arg(shownName(fs), support.missing.join(QStringLiteral(", ")));
    return place == FilesystemPlace::Image ? imageLimitHere(fs, FilesystemAction::Grow) : QString();
}

ResizeAbilities resizeAbilitiesHere(const QString &fs, FilesystemPlace place)
{
    ResizeAbilities here;
    if (canShrinkUnmounted(fs))
        here.cannotShrink = whyCannotShrinkHere(fs, kBtrfsMinimumBytes, place);
    here.cannotGrow = whyCannotGrowHere(fs, place);
    return here;
}

QString whyCannotResizeHere(const QString &fs, qint64 oldBytes, qint64 newBytes, bool sizeKept,
                            FilesystemPlace place)
{
    if (newBytes < oldBytes)
        return canShrinkUnmounted(fs) ? whyCannotShrinkHere(fs, newBytes, place) : QString();
    if (newBytes > oldBytes && !sizeKept)
        return whyCannotGrowHere(fs, place);
    return QString();
}

} // namespace partwise
