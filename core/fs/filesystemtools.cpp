#include "fs/filesystemtools.h"

#include "fs/filesystemkinds.h"

namespace partwise {

namespace {

ToolResult unsupported(const QString &what, const QString &filesystem)
{
    return ToolResult::failed(
        QStringLiteral("Partwise cannot %1 a '%2' filesystem.").arg(what, filesystem));
}

} // namespace

ToolResult relabelFilesystem(const QString &device, const QString &fs, const QString &label)
{
    if (isExtFilesystem(fs))
        return runTool(QStringLiteral("e2label"), {device, label}, QStringLiteral("e2fsprogs"));
    if (isFatFilesystem(fs))
        return runTool(QStringLiteral("fatlabel"), {device, label.toUpper().left(11)},
                       QStringLiteral("dosfstools"));
    if (fs == QLatin1String("ntfs"))
        return runTool(QStringLiteral("ntfslabel"), {device, label}, QStringLiteral("ntfs-3g"));
    if (fs == QLatin1String("xfs"))
        return runTool(QStringLiteral("xfs_admin"), {QStringLiteral("-L"), label.left(12), device},
                       QStringLiteral("xfsprogs"));
    if (fs == QLatin1String("btrfs"))
        return runTool(QStringLiteral("btrfs"),
                       {QStringLiteral("filesystem"), QStringLiteral("label"), device, label},
                       QStringLiteral("btrfs-progs"));
    if (fs == QLatin1String("exfat"))
        return runTool(QStringLiteral("exfatlabel"), {device, label.left(11)},
                       QStringLiteral("exfatprogs"));
    if (fs == QLatin1String("f2fs"))
        return runTool(QStringLiteral("f2fslabel"), {device, label}, QStringLiteral("f2fs-tools"));
    if (fs == QLatin1String("swap"))
        return runTool(QStringLiteral("swaplabel"), {QStringLiteral("-L"), label, device},
                       QStringLiteral("util-linux"));
    return unsupported(QStringLiteral("label"), fs);
}

ToolResult checkFilesystem(const QString &device, const QString &fs, bool repair)
{
    if (isExtFilesystem(fs))
        return runTool(
            QStringLiteral("e2fsck"),
            {QStringLiteral("-f"), repair ? QStringLiteral("-y") : QStringLiteral("-n"), device},
            QStringLiteral("e2fsprogs"));
    if (isFatFilesystem(fs))
        return runTool(QStringLiteral("fsck.fat"),
                       {repair ? QStringLiteral("-a") : QStringLiteral("-n"), device},
                       QStringLiteral("dosfstools"));
    if (fs == QLatin1String("xfs"))
        return runTool(QStringLiteral("xfs_repair"),
                       repair ? QStringList{device} : QStringList{QStringLiteral("-n"), device},
                       QStringLiteral("xfsprogs"));
    if (fs == QLatin1String("btrfs"))
        return runTool(
            QStringLiteral("btrfs"),
            repair ? QStringList{QStringLiteral("check"), QStringLiteral("--repair"), device}
                   : QStringList{QStringLiteral("check"), QStringLiteral("--readonly"), device},
            QStringLiteral("btrfs-progs"));
    if (fs == QLatin1String("ntfs"))
        return runTool(QStringLiteral("ntfsfix"),
                       repair ? QStringList{device} : QStringList{QStringLiteral("-n"), device},
                       QStringLiteral("ntfs-3g"));
    if (fs == QLatin1String("exfat"))
        return runTool(QStringLiteral("fsck.exfat"),
                       {repair ? QStringLiteral("-p") : QStringLiteral("-n"), device},
                       QStringLiteral("exfatprogs"));
    if (fs == QLatin1String("f2fs"))
        return runTool(QStringLiteral("fsck.f2fs"),
                       repair ? QStringList{QStringLiteral("-a"), device}
                              : QStringList{QStringLiteral("--dry-run"), device},
                       QStringLiteral("f2fs-tools"));
    if (fs == QLatin1String("swap"))
        return ToolResult::succeeded(QStringLiteral("swap has no filesystem to check"));
    return unsupported(QStringLiteral("check"), fs);
}

} // namespace partwise
