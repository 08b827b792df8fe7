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

QString labelProblemFor(const QString &fs, const QString &label)
{
    // xfs_db reads its command line as words: a space would end the label (and the command
    // fails), a quote groups words and stays in the label, "--" clears it. So an XFS label is
    // one word of printable ASCII with no quote or backslash.
    if (fs != QLatin1String("xfs"))
        return {};
    for (const QChar c : label)
        if (c.unicode() <= 0x20 || c.unicode() >= 0x7f || c == QLatin1Char('"') ||
            c == QLatin1Char('\\') || c == QLatin1Char('\''))
            return QStringLiteral("An XFS label here is one word of plain letters, digits and "
                                  "punctuation, without spaces, quotes or backslashes.");
    if (label.startsWith(QLatin1String("--")))
        return QStringLiteral("An XFS label must not start with \"--\".");
    return {};
}

ToolResult relabelFilesystem(const QString &device, const QString &fs, const QString &label)
{
    if (const QString problem = labelProblemFor(fs, label); !problem.isEmpty())
        return ToolResult::failed(problem);
    if (isExtFilesystem(fs))
        return runTool(QStringLiteral("e2label"), {device, label}, QStringLiteral("e2fsprogs"));
    if (isFatFilesystem(fs))
        return runTool(QStringLiteral("fatlabel"), {device, label.toUpper().left(11)},
                       QStringLiteral("dosfstools"));
    if (fs == QLatin1String("ntfs"))
        return runTool(QStringLiteral("ntfslabel"), {device, label}, QStringLiteral("ntfs-3g"));
    if (fs == QLatin1String("xfs"))
        // xfs_db itself, never xfs_admin: that is a shell script that evals its label.
        return runTool(QStringLiteral("xfs_db"),
                       {QStringLiteral("-x"), QStringLiteral("-p"), QStringLiteral("xfs_admin"),
                        QStringLiteral("-c"),
                        label.isEmpty() ? QStringLiteral("label --")
                                        : QStringLiteral("label ") + label.left(12),
                        device},
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

QString noCheckReason(const QString &fs)
{
    static const QStringList checked{QStringLiteral("xfs"),
                                     QStringLiteral("btrfs"),
                                     QStringLiteral("ntfs"),
                                     QStringLiteral("exfat"),
                                     QStringLiteral("f2fs"),
                                     QStringLiteral("swap"),
                                     QStringLiteral("crypto_LUKS"),
                                     QStringLiteral("LVM2_member"),
                                     QStringLiteral("linux_raid_member")};
    if (fs.isEmpty() || isExtFilesystem(fs) || isFatFilesystem(fs) || checked.contains(fs))
        return {};
    return QStringLiteral("Partwise has no read-only check for %1").arg(fs);
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
    // Containers moved whole: their own tools read and verify their headers (LUKS2's and md's
    // checksums, LVM's metadata) without writing; what is inside is checked where it is opened.
    if (!repair && fs == QLatin1String("crypto_LUKS"))
        return runTool(QStringLiteral("cryptsetup"), {QStringLiteral("luksDump"), device},
                       QStringLiteral("cryptsetup-bin"));
    if (!repair && fs == QLatin1String("LVM2_member"))
        return runTool(QStringLiteral("pvck"), {device}, QStringLiteral("lvm2"));
    if (!repair && fs == QLatin1String("linux_raid_member"))
        return runTool(QStringLiteral("mdadm"), {QStringLiteral("--examine"), device},
                       QStringLiteral("mdadm"));
    return unsupported(QStringLiteral("check"), fs);
}

} // namespace partwise
