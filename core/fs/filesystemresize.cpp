#include "fs/filesystemresize.h"

#include "device/loopattachment.h"
#include "fs/btrfsresize.h"
#include "fs/f2fsresize.h"
#include "fs/fatresize.h"

namespace {

bool isExt(const QString &fs)
{
    return fs == QLatin1String("ext2") || fs == QLatin1String("ext3") ||
           fs == QLatin1String("ext4");
}

bool isFat(const QString &fs)
{
    return fs == QLatin1String("vfat") || fs == QLatin1String("fat16") ||
           fs == QLatin1String("fat32");
}

ToolResult done(const QString &note)
{
    ToolResult r;
    r.ok = true;
    r.exitCode = 0;
    r.output = note;
    return r;
}

ToolResult refuse(const QString &why)
{
    ToolResult r;
    r.error = why;
    return r;
}

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
    return isExt(fs) || fs == QLatin1String("ntfs") || fs == QLatin1String("swap") || fs.isEmpty();
}

bool canGrowUnmounted(const QString &fs)
{
    return canShrinkUnmounted(fs);
}

bool filesystemCanShrink(const QString &fs)
{
    return canShrinkUnmounted(fs) || isFat(fs) || fs == QLatin1String("btrfs") ||
           fs == QLatin1String("f2fs");
}

ToolResult resizeFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                            const QString &fs, qint64 newBytes)
{
    if (fs.isEmpty() || fs == QLatin1String("swap"))
        return done(QStringLiteral("nothing to resize"));
    if (isFat(fs))
        return resizeFatFilesystem(where, partitionBytes, newBytes);
    if (fs == QLatin1String("btrfs"))
        return resizeBtrfsFilesystem(where, partitionBytes, newBytes);
    if (fs == QLatin1String("f2fs"))
        return resizeF2fsFilesystem(where, partitionBytes, newBytes);
    if (!isExt(fs) && fs != QLatin1String("ntfs")) {
        if (fs == QLatin1String("xfs"))
            return refuse(
                QStringLiteral("XFS cannot shrink, and grows only while mounted (xfs_growfs)."));
        return refuse(QStringLiteral("Partwise cannot resize %1 filesystems.").arg(fs));
    }
    // Inside an image the tools get a loop device over the partition: resize2fs truncates a
    // regular file to the filesystem's new size, which would cut off the rest of the image.
    if (where.isImage) {
        LoopAttachment loop(where.path, where.offset, std::max(partitionBytes, newBytes), false);
        if (!loop.ok())
            return refuse(loop.error());
        return resizeOnDevice(loop.device(), fs, newBytes);
    }
    return resizeOnDevice(where.path, fs, newBytes);
}
