#include "fs/filesystemformatter.h"

#include "fs/filesystemkinds.h"
#include "fs/imageregion.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <memory>

namespace partwise {

namespace {

struct MkfsCommand
{
    QString program;
    QStringList arguments; // the target is appended
    QString package;
};

// Filesystem blocks are 4 KiB throughout: that is what alignment is about.
constexpr int kBlockSize = 4096;

MkfsCommand mkfsCommand(const FormatRequest &r, bool onFile)
{
    const QString fs = r.filesystem;
    if (isExtFilesystem(fs)) {
        QStringList args{QStringLiteral("-F"), QStringLiteral("-q"),       QStringLiteral("-t"), fs,
                         QStringLiteral("-b"), QString::number(kBlockSize)};
        if (!r.label.isEmpty())
            args << QStringLiteral("-L") << r.label;
        if (onFile && !r.contentFrom.isEmpty())
            args << QStringLiteral("-d") << r.contentFrom;
        // A grain larger than 1 MiB is a RAID stripe or erase block: tell ext4 about it.
        if (r.grainBytes > (1 << 20))
            args << QStringLiteral("-E")
                 << QStringLiteral("stride=%1,stripe_width=%1").arg(r.grainBytes / kBlockSize);
        return {QStringLiteral("mkfs.") + fs, args, QStringLiteral("e2fsprogs")};
    }
    if (fs == QLatin1String("xfs")) {
        QStringList args{QStringLiteral("-f"), QStringLiteral("-q")};
        if (!r.label.isEmpty())
            args << QStringLiteral("-L") << r.label.left(12);
        if (r.grainBytes > (1 << 20))
            args << QStringLiteral("-d") << QStringLiteral("su=%1,sw=1").arg(r.grainBytes);
        return {QStringLiteral("mkfs.xfs"), args, QStringLiteral("xfsprogs")};
    }
    if (fs == QLatin1String("btrfs")) {
        QStringList args{QStringLiteral("-f"), QStringLiteral("-q")};
        if (!r.label.isEmpty())
            args << QStringLiteral("-L") << r.label;
        return {QStringLiteral("mkfs.btrfs"), args, QStringLiteral("btrfs-progs")};
    }
    if (isFatFilesystem(fs)) {
        QStringList args{QStringLiteral("-S"), QString::number(r.logicalSectorSize),
                         // Hidden sectors: where the partition starts, as Windows expects.
                         QStringLiteral("-h"), QString::number(r.startSector)};
        // Plain "vfat" lets mkfs.fat pick FAT12/16/32 from the size and sector size.
        if (fs != QLatin1String("vfat"))
            args << QStringLiteral("-F") << fs.mid(3);
        if (!r.label.isEmpty())
            args << QStringLiteral("-n") << r.label.toUpper().left(11);
        return {QStringLiteral("mkfs.fat"), args, QStringLiteral("dosfstools")};
    }
    if (fs == QLatin1String("ntfs")) {
        QStringList args{QStringLiteral("-Q"), QStringLiteral("-s"),
                         QString::number(r.logicalSectorSize), QStringLiteral("-p"),
                         QString::number(r.startSector)};
        if (onFile)
            args << QStringLiteral("-F");
        if (!r.label.isEmpty())
            args << QStringLiteral("-L") << r.label;
        return {QStringLiteral("mkntfs"), args, QStringLiteral("ntfs-3g")};
    }
    if (fs == QLatin1String("exfat")) {
        // The FAT and the cluster heap start on the grain (the partition does too).
        QStringList args{QStringLiteral("-b"),
                         QStringLiteral("%1K").arg(std::max<qint64>(r.grainBytes, 1 << 20) / 1024)};
        if (!r.label.isEmpty())
            args << QStringLiteral("-L") << r.label.left(11);
        return {QStringLiteral("mkfs.exfat"), args, QStringLiteral("exfatprogs")};
    }
    if (fs == QLatin1String("f2fs")) {
        // F2FS writes in 4 KiB blocks and lays its segments out from the partition's start,
        // which is on the grain.
        QStringList args{QStringLiteral("-f"), QStringLiteral("-q")};
        if (!r.label.isEmpty())
            args << QStringLiteral("-l") << r.label;
        return {QStringLiteral("mkfs.f2fs"), args, QStringLiteral("f2fs-tools")};
    }
    if (fs == QLatin1String("swap")) {
        QStringList args;
        if (!r.label.isEmpty())
            args << QStringLiteral("-L") << r.label;
        if (!r.uuid.isEmpty())
            args << QStringLiteral("-U") << r.uuid;
        return {QStringLiteral("mkswap"), args, QStringLiteral("util-linux")};
    }
    return {};
}

// Next to the image when possible: same filesystem, so sparse files and space behave alike.
std::unique_ptr<QTemporaryDir> scratchDirNear(const QString &image)
{
    auto dir = std::make_unique<QTemporaryDir>(
        QDir(QFileInfo(image).absolutePath()).filePath(QStringLiteral(".partwise-mkfs-XXXXXX")));
    if (!dir->isValid())
        dir = std::make_unique<QTemporaryDir>();
    return dir;
}

// Copies the files of `folder` into the filesystem just made in `scratch` (ext* took them at
// mkfs time with -d).
ToolResult populate(const FormatRequest &r, const QString &scratch)
{
    const QDir folder(r.contentFrom);
    const QStringList names = folder.entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot);
    if (r.contentFrom.isEmpty() || names.isEmpty() || isExtFilesystem(r.filesystem))
        return ToolResult::succeeded(QString());
    if (isFatFilesystem(r.filesystem)) {
        QStringList args{QStringLiteral("-s"), QStringLiteral("-Q"), QStringLiteral("-i"), scratch};
        for (const QString &name : names)
            args << folder.filePath(name);
        args << QStringLiteral("::/");
        return runTool(QStringLiteral("mcopy"), args, QStringLiteral("mtools"));
    }
    if (r.filesystem == QLatin1String("ntfs")) {
        ToolResult last = ToolResult::succeeded(QString());
        for (const QString &name : folder.entryList(QDir::Files))
            if (!(last = runTool(QStringLiteral("ntfscp"),
                                 {QStringLiteral("-q"), scratch, folder.filePath(name), name},
                                 QStringLiteral("ntfs-3g")))
                     .ok)
                break;
        return last;
    }
    return ToolResult::succeeded(QString()); // swap holds no files
}

} // namespace

QStringList formattableFilesystems()
{
    return {QStringLiteral("ext4"),  QStringLiteral("ext3"),  QStringLiteral("ext2"),
            QStringLiteral("xfs"),   QStringLiteral("btrfs"), QStringLiteral("vfat"),
            QStringLiteral("fat16"), QStringLiteral("fat32"), QStringLiteral("ntfs"),
            QStringLiteral("exfat"), QStringLiteral("f2fs"),  QStringLiteral("swap")};
}

bool isFormattable(const QString &filesystem)
{
    return formattableFilesystems().contains(filesystem);
}

ToolResult formatFilesystem(const FormatRequest &request)
{
    if (!isFormattable(request.filesystem))
        return ToolResult::failed(
            QStringLiteral("Partwise cannot create a '%1' filesystem.").arg(request.filesystem));
    if (!request.targetIsImage) {
        const MkfsCommand cmd = mkfsCommand(request, false);
        return runTool(cmd.program, cmd.arguments + QStringList{request.target}, cmd.package);
    }

    return buildInScratch(request, [&request](const QString &scratch) {
        const MkfsCommand cmd = mkfsCommand(request, true);
        const ToolResult made =
            runTool(cmd.program, cmd.arguments + QStringList{scratch}, cmd.package);
        if (!made.ok)
            return made;
        const ToolResult filled = populate(request, scratch);
        return filled.ok ? made : filled;
    });
}

ToolResult buildInScratch(const FormatRequest &request,
                          const std::function<ToolResult(const QString &scratch)> &make)
{
    const std::unique_ptr<QTemporaryDir> scratchDir = scratchDirNear(request.target);
    const QString scratch = scratchDir->filePath(QStringLiteral("fs.img"));
    {
        QFile f(scratch);
        if (!f.open(QIODevice::WriteOnly) || !f.resize(request.sizeBytes))
            return ToolResult::failed(
                QStringLiteral("Cannot create a scratch file for the new filesystem in %1.")
                    .arg(scratchDir->path()));
    }
    ToolResult r = make(scratch);
    if (!r.ok)
        return r;
    QString error;
    if (!zeroFileRange(request.target, request.offsetBytes, request.sizeBytes, &error) ||
        !copySparseInto(scratch, request.target, request.offsetBytes, &error)) {
        r.ok = false;
        r.error = error;
    }
    return r;
}

} // namespace partwise
