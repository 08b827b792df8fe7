#include "fsfixture.h"

#include "filetree.h"

#include <QDir>
#include <QTemporaryDir>

namespace pwtest {

namespace {

ToolResult run(const QString &program, const QStringList &args)
{
    return runTool(program, args, {}, 300000);
}

bool mountNode(const QString &node, const QString &fs, const QString &dir, bool readOnly,
               QString *error)
{
    ToolResult r;
    if (fs == QLatin1String("ntfs") || fs == QLatin1String("exfat")) {
        // No kernel driver for either here: their FUSE drivers.
        QStringList args;
        if (readOnly)
            args << QStringLiteral("-o") << QStringLiteral("ro");
        r = run(fs == QLatin1String("ntfs") ? QStringLiteral("ntfs-3g")
                                            : QStringLiteral("mount.exfat-fuse"),
                args << node << dir);
    } else {
        if (fs == QLatin1String("btrfs"))
            forgetBtrfsDevices();
        r = run(QStringLiteral("mount"),
                {QStringLiteral("-t"), fs, QStringLiteral("-o"),
                 readOnly ? QStringLiteral("ro") : QStringLiteral("rw"), node, dir});
    }
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

bool unmount(const QString &dir, QString *error)
{
    run(QStringLiteral("sync"), {});
    const ToolResult r = run(QStringLiteral("umount"), {dir});
    if (!r.ok() && error && error->isEmpty())
        *error = r.describe();
    return r.ok();
}

} // namespace

// mtools refuses FAT geometries that do not match a cylinder layout unless told not to care.
ToolResult mtools(const QString &program, const QStringList &args)
{
    return run(QStringLiteral("env"),
               QStringList{QStringLiteral("MTOOLS_SKIP_CHECK=1"), program} + args);
}

LoopRange::LoopRange(const QString &file, qint64 offset, qint64 size, bool readOnly)
{
    QStringList args{QStringLiteral("-f"), QStringLiteral("--show")};
    if (readOnly)
        args << QStringLiteral("-r");
    if (offset > 0)
        args << QStringLiteral("-o") << QString::number(offset);
    if (size > 0)
        args << QStringLiteral("--sizelimit") << QString::number(size);
    const ToolResult r = run(QStringLiteral("losetup"), args << file);
    if (r.ok())
        m_path = QString::fromUtf8(r.out).trimmed();
    else
        m_error = r.describe();
}

LoopRange::~LoopRange()
{
    if (m_path.isEmpty())
        return;
    // A tool may have told the kernel about partitions on it (BLKPG); drop them first, or the
    // next user of this loop device finds them still there.
    run(QStringLiteral("partx"), {QStringLiteral("-d"), m_path});
    run(QStringLiteral("losetup"), {QStringLiteral("-d"), m_path});
}

bool makeFilesystem(const QString &node, const QString &fs, const QString &label,
                    qint64 hiddenSectors, QString *error)
{
    ToolResult r;
    if (fs == QLatin1String("ext4"))
        r = run(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-L"), label, node});
    else if (fs == QLatin1String("xfs"))
        // Below 300 MB mkfs.xfs wants the fstests escape hatch; the filesystem is ordinary XFS.
        r = run(QStringLiteral("env"),
                {QStringLiteral("TEST_DIR=1"), QStringLiteral("TEST_DEV=1"),
                 QStringLiteral("QA_CHECK_FS=1"), QStringLiteral("mkfs.xfs"), QStringLiteral("-q"),
                 QStringLiteral("-f"), QStringLiteral("-L"), label, node});
    else if (fs == QLatin1String("btrfs"))
        r = run(QStringLiteral("mkfs.btrfs"),
                {QStringLiteral("-q"), QStringLiteral("-f"), QStringLiteral("-L"), label, node});
    else if (fs == QLatin1String("vfat"))
        r = run(QStringLiteral("mkfs.vfat"),
                {QStringLiteral("-I"), QStringLiteral("-n"), label, QStringLiteral("-h"),
                 QString::number(hiddenSectors), node});
    else if (fs == QLatin1String("fat16") || fs == QLatin1String("fat32"))
        // The cluster size mkfs.fat picks for the size, as on a real card or disk.
        r = run(QStringLiteral("mkfs.vfat"),
                {QStringLiteral("-I"), QStringLiteral("-F"), fs.mid(3), QStringLiteral("-n"), label,
                 QStringLiteral("-h"), QString::number(hiddenSectors), node});
    else if (fs == QLatin1String("exfat"))
        r = run(QStringLiteral("mkfs.exfat"), {QStringLiteral("-L"), label, node});
    else if (fs == QLatin1String("ntfs"))
        r = run(QStringLiteral("mkntfs"),
                {QStringLiteral("-Q"), QStringLiteral("-F"), QStringLiteral("-L"), label,
                 QStringLiteral("-p"), QString::number(hiddenSectors), QStringLiteral("-H"),
                 QStringLiteral("255"), QStringLiteral("-S"), QStringLiteral("63"), node});
    else if (fs == QLatin1String("swap"))
        r = run(QStringLiteral("mkswap"), {QStringLiteral("-L"), label, node});
    else {
        *error = QStringLiteral("no mkfs for %1").arg(fs);
        return false;
    }
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

bool fillFilesystem(const QString &node, const QString &fs, const QString &sourceDir,
                    QString *error)
{
    if (fs == QLatin1String("swap"))
        return true;
    const QStringList entries = QDir(sourceDir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
    if (blkidTypeOf(fs) == QLatin1String("vfat")) {
        QStringList args{QStringLiteral("-s"), QStringLiteral("-Q"), QStringLiteral("-i"), node};
        for (const QString &e : entries)
            args << QDir(sourceDir).filePath(e);
        const ToolResult r = mtools(QStringLiteral("mcopy"), args << QStringLiteral("::/"));
        if (!r.ok())
            *error = r.describe();
        return r.ok();
    }
    QTemporaryDir mnt;
    if (!mountNode(node, fs, mnt.path(), false, error))
        return false;
    const ToolResult r = run(QStringLiteral("cp"),
                             {QStringLiteral("-r"), sourceDir + QStringLiteral("/."), mnt.path()});
    if (!r.ok())
        *error = r.describe();
    return unmount(mnt.path(), error) && r.ok();
}

QMap<QString, QByteArray> filesystemTreeSha256(const QString &node, const QString &fs,
                                               QString *error)
{
    QTemporaryDir dir;
    if (blkidTypeOf(fs) == QLatin1String("vfat")) {
        const ToolResult r =
            mtools(QStringLiteral("mcopy"),
                   {QStringLiteral("-s"), QStringLiteral("-Q"), QStringLiteral("-i"), node,
                    QStringLiteral("::/*"), dir.path() + QLatin1Char('/')});
        if (!r.ok()) {
            *error = r.describe();
            return {};
        }
        return treeSha256(dir.path(), error);
    }
    if (!mountNode(node, fs, dir.path(), true, error))
        return {};
    const QMap<QString, QByteArray> sums = treeSha256(dir.path(), error);
    unmount(dir.path(), error);
    return sums;
}

ToolResult checkFilesystemReadOnly(const QString &node, const QString &fs)
{
    if (fs == QLatin1String("ext4"))
        return run(QStringLiteral("e2fsck"), {QStringLiteral("-f"), QStringLiteral("-n"), node});
    if (fs == QLatin1String("xfs"))
        return run(QStringLiteral("xfs_repair"), {QStringLiteral("-n"), node});
    if (fs == QLatin1String("btrfs")) {
        forgetBtrfsDevices();
        return run(QStringLiteral("btrfs"),
                   {QStringLiteral("check"), QStringLiteral("--readonly"), node});
    }
    if (blkidTypeOf(fs) == QLatin1String("vfat"))
        return run(QStringLiteral("fsck.fat"), {QStringLiteral("-n"), node});
    if (fs == QLatin1String("exfat"))
        return run(QStringLiteral("fsck.exfat"), {QStringLiteral("-n"), node});
    if (fs == QLatin1String("ntfs"))
        return run(QStringLiteral("ntfsfix"), {QStringLiteral("-n"), node});
    if (fs == QLatin1String("swap")) {
        ToolResult r = run(QStringLiteral("blkid"),
                           {QStringLiteral("-p"), QStringLiteral("-s"), QStringLiteral("TYPE"),
                            QStringLiteral("-o"), QStringLiteral("value"), node});
        if (r.ok() && r.out.trimmed() != "swap")
            r.exitCode = 1;
        return r;
    }
    ToolResult none;
    none.command = QStringLiteral("check %1").arg(fs);
    return none;
}

QString blkidTypeOf(const QString &fs)
{
    return fs == QLatin1String("fat16") || fs == QLatin1String("fat32") ? QStringLiteral("vfat")
                                                                        : fs;
}

void forgetBtrfsDevices()
{
    run(QStringLiteral("btrfs"),
        {QStringLiteral("device"), QStringLiteral("scan"), QStringLiteral("--forget")});
}

} // namespace pwtest
