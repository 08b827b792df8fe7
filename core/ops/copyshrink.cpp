#include "ops/copyshrink.h"

#include "fs/filesystemminimum.h"
#include "fs/filesystemresize.h"
#include "fs/resizelimit.h"
#include "fs/usedblocks.h"
#include "move/alignedbuffer.h"
#include "move/blockio.h"

#include <QFile>

#include <cstring>

namespace partwise {

using move::BlockIo;
using move::Extent;

std::optional<qint64> copyShrinkMinimumBytes(const FilesystemLocation &where, qint64 partitionBytes,
                                             const QString &filesystem,
                                             std::optional<quint64> usedBytes)
{
    if (!canShrinkUnmounted(filesystem) ||
        !resizeLimitOf(where, partitionBytes, filesystem).isEmpty())
        return std::nullopt;
    if (const auto min = filesystemMinimumBytes(where, filesystem))
        return min;
    if (usedBytes)
        return std::max<qint64>(qint64(*usedBytes) * 11 / 10, 16 << 20);
    return std::nullopt;
}

QString shrinkIntoScratch(const QString &source, qint64 sourceSectorSize,
                          const CopyPartitionPlan &p, const QString &scratchPath,
                          const std::function<void(const QString &)> &log)
{
    constexpr quint64 kPiece = 4 << 20;
    const qint64 offset = p.oldStart * sourceSectorSize;
    const qint64 oldBytes = (p.oldEnd - p.oldStart + 1) * sourceSectorSize;
    QFile::remove(scratchPath);
    QFile file(scratchPath);
    if (!file.open(QIODevice::WriteOnly) || !file.resize(oldBytes))
        return QStringLiteral("Cannot create %1: %2").arg(scratchPath, file.errorString());
    file.close();
    int error = 0;
    auto scratch = move::openFileBlockIo(scratchPath, BlockIo::Access::ReadWrite, &error);
    auto from = move::openFileBlockIo(source, BlockIo::Access::ReadOnly, &error);
    if (!scratch || !from)
        return QStringLiteral("Cannot open %1 or %2: %3")
            .arg(scratchPath, source, QString::fromLocal8Bit(std::strerror(error)));
    QString why;
    const auto used = usedExtents(source, offset, oldBytes, p.filesystem, &why);
    move::AlignedBuffer buffer(kPiece);
    for (const Extent &e : used ? *used : std::vector<Extent>{{0, quint64(oldBytes)}})
        for (quint64 done = 0; done < e.length; done += kPiece) {
            const quint64 length = std::min(kPiece, e.length - done);
            if (const int r =
                    from->readAt(buffer.data(), length, quint64(offset) + e.offset + done))
                return QStringLiteral("Reading %1: %2")
                    .arg(source, QString::fromLocal8Bit(std::strerror(r)));
            if (const int w = move::writeOrPunch(*scratch, buffer.data(), length, e.offset + done))
                return QStringLiteral("Writing %1: %2")
                    .arg(scratchPath, QString::fromLocal8Bit(std::strerror(w)));
        }
    scratch->sync();
    scratch.reset();
    // The scratch file is the filesystem from its first byte: its tools take it directly, as
    // they take a partition node, with no loop device or FUSE (and no root).
    const FilesystemLocation where{scratchPath, 0, false};
    const ToolResult r = resizeFilesystem(where, oldBytes, p.filesystem, p.newFilesystemBytes);
    log(QStringLiteral("  $ %1").arg(r.command));
    if (!r.ok)
        return QStringLiteral("The %1 filesystem of partition %2 cannot shrink to %3 bytes: %4")
            .arg(p.filesystem)
            .arg(p.sourceNumber)
            .arg(p.newFilesystemBytes)
            .arg(r.error);
    // What the tool left past the new size is no longer the filesystem's.
    if (!QFile::resize(scratchPath, p.newFilesystemBytes))
        return QStringLiteral("Cannot cut %1 to its new size.").arg(scratchPath);
    return QString();
}

} // namespace partwise
