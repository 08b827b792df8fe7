#include "fs/sessionabilities.h"

#include "base/toolrunner.h"
#include "device/loopattachment.h"
#include "device/partitionfile.h"
#include "fs/filesystemkinds.h"

#include <unistd.h>

namespace partwise {

namespace {

// The tools reach a partition inside an image through a node they can write: a loop device
// (root), or the partition served as a file of its own through FUSE.
bool writableNodeInImages()
{
    return loopDevicesAvailable() || partitionFilesAvailable();
}

bool resizes(FilesystemAction action)
{
    return action == FilesystemAction::Shrink || action == FilesystemAction::Grow;
}

// Work that writes the filesystem through a device node of its own; the rest reads it (a
// scratch copy will do), creates it, or is the mover's copy of the image.
bool writesThroughNode(FilesystemAction action)
{
    return resizes(action) || action == FilesystemAction::Repair ||
           action == FilesystemAction::Label || action == FilesystemAction::NewUuid;
}

// "shrinking FAT", for "… needs the package …".
QString doing(FilesystemAction action, const QString &shown)
{
    switch (action) {
    case FilesystemAction::Create:
        return QStringLiteral("creating %1").arg(shown);
    case FilesystemAction::Label:
        return QStringLiteral("labelling %1").arg(shown);
    case FilesystemAction::Check:
        return QStringLiteral("checking %1").arg(shown);
    case FilesystemAction::Repair:
        return QStringLiteral("repairing %1").arg(shown);
    case FilesystemAction::Grow:
        return QStringLiteral("growing %1").arg(shown);
    case FilesystemAction::Shrink:
        return QStringLiteral("shrinking %1").arg(shown);
    case FilesystemAction::Move:
        return QStringLiteral("moving %1 (checked before and after)").arg(shown);
    case FilesystemAction::UsedBlocks:
        return QStringLiteral("finding the used blocks of %1").arg(shown);
    case FilesystemAction::NewUuid:
        return QStringLiteral("giving %1 a new UUID").arg(shown);
    }
    return shown;
}

AbilityHere can()
{
    return {true, {}};
}

AbilityHere cannot(const QString &why)
{
    return {false, why};
}

// libblkid says vfat; a queued Format says fat16 or fat32.
QString tableName(const QString &fs)
{
    return isFatFilesystem(fs) ? QStringLiteral("vfat") : fs;
}

bool known(const QString &fs)
{
    return supportedFilesystemNames().contains(tableName(fs));
}

bool physicalVolume(const QString &fs)
{
    return fs == QLatin1String("LVM2_member");
}

// An LVM physical volume follows its partition through pvresize (layer/physicalvolumeresize.h),
// which takes a block device: the partition's node, or inside an image a loop device (root).
AbilityHere physicalVolumeResizeHere(FilesystemPlace place)
{
    if (findTool(QStringLiteral("pvresize")).isEmpty())
        return cannot(QStringLiteral("resizing an LVM physical volume needs the package lvm2, "
                                     "which is not installed"));
    if (place == FilesystemPlace::Image && !loopDevicesAvailable())
        return cannot(QStringLiteral("pvresize needs a block device, and inside an image file "
                                     "only an administrator can make one (a loop device)"));
    return can();
}

} // namespace

QString imageLimitHere(const QString &fs, FilesystemAction action)
{
    if (!writesThroughNode(action))
        return QString(); // read-only work: a loop device, or a scratch copy of the partition
    if (fs.isEmpty() || (fs == QLatin1String("swap") && resizes(action)))
        return QString(); // nothing to resize: the partition is cut, swap recreated
    if (fs == QLatin1String("btrfs") && resizes(action) && ::geteuid() != 0)
        return QStringLiteral("btrfs is resized while mounted, which only an administrator can "
                              "do");
    if (writableNodeInImages())
        return QString();
    QString what = doing(action, filesystemShownName(fs));
    what[0] = what[0].toUpper();
    // Two sentences: the reason (a sentence of its own) does not hang off this one's colon.
    return QStringLiteral("%1 inside an image file needs a loop device, which only an "
                          "administrator can create, or the partition as a file through FUSE. %2")
        .arg(what, partitionFilesProblem());
}

AbilityHere filesystemAbilityHere(const QString &name, FilesystemAction action,
                                  FilesystemPlace place)
{
    const QString fs = tableName(name);
    const bool sizeOrPlace = resizes(action) || action == FilesystemAction::Move;
    if (fs.isEmpty())
        return sizeOrPlace ? can() : cannot(QStringLiteral("the partition holds no filesystem"));
    if (physicalVolume(fs) && resizes(action))
        return physicalVolumeResizeHere(place);
    if (!known(fs)) // moved whole, never shrunk (ARCHITECTURE: disks other tools made)
        return action == FilesystemAction::Move
                   ? can()
                   : cannot(QStringLiteral("Partwise cannot %1 %2 contents")
                                .arg(filesystemActionName(action), fs));
    const SupportCell cell = filesystemSupport(fs, action);
    if (!cell.supported)
        return cannot(cell.note.isEmpty()
                          ? QStringLiteral("Partwise cannot %1 %2 filesystems")
                                .arg(filesystemActionName(action), filesystemShownName(fs))
                          : cell.note);
    if (!cell.missing.isEmpty())
        return cannot(QStringLiteral("%1 needs the package %2, which is not installed")
                          .arg(doing(action, filesystemShownName(fs)),
                               cell.missing.join(QStringLiteral(", "))));
    if (place == FilesystemPlace::Image)
        if (const QString limit = imageLimitHere(fs, action); !limit.isEmpty())
            return cannot(limit);
    return can();
}

QString whyCannotShrinkHere(const QString &fs, qint64 newBytes, FilesystemPlace place)
{
    const AbilityHere shrink = filesystemAbilityHere(fs, FilesystemAction::Shrink, place);
    if (!shrink.can)
        return shrink.why;
    if (fs == QLatin1String("btrfs") && newBytes < kBtrfsMinimumBytes)
        return QStringLiteral("btrfs cannot be resized below 256 MiB");
    return QString();
}

bool filesystemGrowsHere(const QString &fs, FilesystemPlace place)
{
    return !fs.isEmpty() && filesystemAbilityHere(fs, FilesystemAction::Grow, place).can;
}

QString whyCannotGrowHere(const QString &fs, FilesystemPlace place)
{
    if (physicalVolume(fs))
        return physicalVolumeResizeHere(place).why;
    if (fs.isEmpty() || !known(fs) ||
        !filesystemSupport(tableName(fs), FilesystemAction::Grow).supported)
        return QString(); // nothing to grow, or it keeps its size (grown by its own tools)
    return filesystemAbilityHere(fs, FilesystemAction::Grow, place).why;
}

ResizeAbilities resizeAbilitiesHere(const QString &fs, FilesystemPlace place)
{
    return {whyCannotShrinkHere(fs, kBtrfsMinimumBytes, place), whyCannotGrowHere(fs, place)};
}

QString whyCannotResizeHere(const QString &fs, qint64 oldBytes, qint64 newBytes, bool sizeKept,
                            FilesystemPlace place)
{
    if (newBytes < oldBytes)
        return whyCannotShrinkHere(fs, newBytes, place);
    if (newBytes > oldBytes && !sizeKept)
        return whyCannotGrowHere(fs, place);
    return QString();
}

} // namespace partwise
