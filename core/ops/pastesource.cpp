#include "ops/pastesource.h"

#include "boot/partitionentries.h"
#include "fs/filesystemresize.h"
#include "fs/filesystemsize.h"
#include "fs/usedblocks.h"
#include "ops/copyplan.h"
#include "ops/copyshrink.h"
#include "table/diskreader.h"

#include <QFile>
#include <QHash>
#include <QPair>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

PasteSourceRead readPasteSource(const QString &path, int number)
{
    PasteSourceRead read;
    DiskReadOptions options;
    options.useMeasurements = false;
    const DiskReadResult disk = readDisk(path, options);
    if (!disk.ok) {
        read.error = QStringLiteral("The paste's source cannot be read: %1").arg(disk.error);
        return read;
    }
    read.layout = disk.layout;
    const PartitionInfo *p = disk.layout.partitionByNumber(number);
    if (!p) {
        read.error = QStringLiteral("%1 has no partition %2 to paste.").arg(path).arg(number);
        return read;
    }
    if (p->isContainer() || p->filesystem.isEmpty()) {
        read.error = QStringLiteral("Partition %1 of %2 holds no filesystem Partwise recognises, "
                                    "so there is nothing to paste.")
                         .arg(number)
                         .arg(path);
        return read;
    }
    read.partition = *p;
    read.source = pasteSourceFromLayout(disk.layout, *p);
    if (p->filesystem != QLatin1String("swap")) {
        const FilesystemLocation where{path, p->startSector * read.source.sectorSize, true};
        read.source.filesystemBytes = filesystemSizeBytes(where, p->filesystem).value_or(0);
    }
    // NTFS is not measured but fills its partition (its backup boot sector is the last).
    if (p->filesystem == QLatin1String("ntfs") && read.source.filesystemBytes == 0)
        read.source.filesystemBytes = read.source.lengthBytes;
    // The entry's type, as the disk copy reads it (ops/copyprepare.cpp).
    if (const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC); fd >= 0) {
        const PartitionEntries entries = readPartitionEntries(fd, read.source.sectorSize);
        ::close(fd);
        if (const PartitionEntry *e = entries.ok ? entries.byNumber(number) : nullptr)
            read.source.typeId = e->typeId();
    }
    read.ok = true;
    return read;
}

Operation::PasteSource pasteSourceFromLayout(const DiskLayout &layout, const PartitionInfo &p)
{
    Operation::PasteSource source;
    source.known = true;
    source.sectorSize = layout.device.topology.logicalSectorSize;
    source.startSector = p.startSector;
    source.lengthBytes = p.lengthSectors() * source.sectorSize;
    source.filesystem = p.filesystem;
    source.label = p.label;
    source.tableType = layout.tableType;
    source.name = p.name;
    source.flags = p.flags;
    return source;
}

void measurePasteShrink(PasteSourceRead *read, qint64 askedBytes)
{
    Operation::PasteSource &source = read->source;
    if (askedBytes <= 0 || askedBytes >= source.wholeBytes() || source.shrinkMinimumBytes > 0 ||
        !canShrinkUnmounted(source.filesystem))
        return;
    const FilesystemLocation where{read->layout.device.path,
                                   read->partition.startSector * source.sectorSize, true};
    std::optional<quint64> used;
    QString why;
    if (usedExtentsSupported(source.filesystem))
        if (const auto extents =
                usedExtents(where.path, where.offset, source.lengthBytes, source.filesystem, &why))
            used = extentBytes(*extents);
    source.shrinkMinimumBytes =
        copyShrinkMinimumBytes(where, source.lengthBytes, source.filesystem, used).value_or(0);
}

QStringList pasteSourceRefusals(const PasteSourceRead &read)
{
    return copySourceRefusals(read.layout.device.path, read.layout.device.isImage,
                              read.partition.number);
}

bool resolvePasteSources(QList<Operation> *operations, QString *error)
{
    // Each partition is read once: a plan of a thousand pastes of one partition (which the
    // helper's preview, running as root, would otherwise measure a thousand times, deaf to the
    // end of its input for minutes) costs one reading.
    QHash<QPair<QString, int>, PasteSourceRead> reads;
    for (int i = 0; i < operations->size(); ++i) {
        Operation &op = (*operations)[i];
        if (op.type != Operation::Type::Paste)
            continue;
        const QPair<QString, int> key{op.sourcePath, op.sourceNumber};
        auto known = reads.find(key);
        if (known == reads.end())
            known = reads.insert(key, readPasteSource(op.sourcePath, op.sourceNumber));
        const PasteSourceRead &read = known.value();
        QString why = read.error;
        if (read.ok)
            why = pasteSourceRefusals(read).join(QLatin1Char(' '));
        if (!why.isEmpty()) {
            *error = QStringLiteral("Operation %1 (paste partition %2 of %3): %4")
                         .arg(i + 1)
                         .arg(op.sourceNumber)
                         .arg(op.sourcePath, why);
            return false;
        }
        measurePasteShrink(&known.value(), op.sizeBytes);
        op.source = known.value().source;
    }
    return true;
}

bool sameDiskOrImage(const QString &a, const QString &b)
{
    struct stat sa
    {
    }, sb{};
    if (::stat(QFile::encodeName(a).constData(), &sa) != 0 ||
        ::stat(QFile::encodeName(b).constData(), &sb) != 0)
        return a == b;
    if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode))
        return sa.st_rdev == sb.st_rdev;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

} // namespace partwise
