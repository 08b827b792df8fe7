#include "fs/filesystemresize.h"

#include "fs/btrfsresize.h"
#include "fs/f2fsresize.h"
#include "fs/fatresize.h"
#include "fs/filesystemkinds.h"
#include "fs/resizesupport.h"

namespace partwise {

namespace {

ToolResult resizeNtfs(const QString &node, qint64 newBytes)
{
    const QStringList size{QStringLiteral("--force"), QStringLiteral("--size"),
                           QString::number(newBytes)};
    // A dry run first: ntfsresize says exactly why a size is impossible without touching anything.
    const ToolResult dry =
        runTool(QStringLiteral("ntfsresize"),
                QStringList{QStringLiteral("--no-action")} + size + QStringList{node},
                QStringLiteral("ntfs-3g"));
    if (!dry.ok)
        return dry;
    return runTool(QStringLiteral("ntfsresize"), size + QStringList{node},
                   QStringLiteral("ntfs-3g"));
}

ToolResult resizeOnDevice(const QString &node, const QString &fs, qint64 newBytes)
{
    if (fs == QLatin1String("ntfs"))
        return resizeNtfs(node, newBytes);
    // resize2fs insists on a freshly checked filesystem.
    const ToolResult check =
        runTool(QStringLiteral("e2fsck"), {QStringLiteral("-f"), QStringLiteral("-p"), node},
                QStringLiteral("e2fsprogs"));
    if (check.exitCode > 1)
        return check;
    return runTool(QStringLiteral("resize2fs"), {node, QStringLiteral("%1K").arg(newBytes / 1024)},
                   QStringLiteral("e2fsprogs"));
}

} // namespace

bool canShrinkUnmounted(const QString &fs)
{
    return isExtFilesystem(fs) || fs == QLatin1String("ntfs") || fs == QLatin1String("swap") ||
           fs.isEmpty();
}

bool canGrowUnmounted(const QString &fs)
{
    return canShrinkUnmounted(fs);
}

bool filesystemCanShrink(const QString &fs)
{
    return canShrinkUnmounted(fs) || isFatFilesystem(fs) || fs == QLatin1String("btrfs") ||
           fs == QLatin1String("f2fs");
}

ToolResult resizeFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                            const QString &fs, qint64 newBytes)
{
    if (fs.isEmpty() || fs == QLatin1String("swap"))
        return ToolResult::succeeded(QStringLiteral("nothing to resize"));
    if (isFatFilesystem(fs))
        return resizeFatFilesystem(where, partitionBytes, newBytes);
    if (fs == QLatin1String("btrfs"))
        return resizeBtrfsFilesystem(where, partitionBytes, newBytes);
    if (fs == QLatin1String("f2fs"))
        return resizeF2fsFilesystem(where, partitionBytes, newBytes);
    if (fs == QLatin1String("xfs"))
        return ToolResult::failed(
            QStringLiteral("XFS cannot shrink, and grows only while mounted (xfs_growfs)."));
    if (!isExtFilesystem(fs) && fs != QLatin1String("ntfs"))
        return ToolResult::failed(QStringLiteral("Partwise cannot resize %1 filesystems.").arg(fs));
    // Inside an image the tools get a loop device over the partition, or its own file through
    // FUSE, never the image: resize2fs truncates a regular file to the filesystem's new size,
    // which would cut off the rest of the image (the partition's file ignores that truncate).
    return onFilesystemNode(
        where, std::max(partitionBytes, newBytes), false,
        [&](const QString &node) { return resizeOnDevice(node, fs, newBytes); });
}

} // namespace partwise
