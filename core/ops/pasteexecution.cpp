#include "ops/pasteexecution.h"

#include "fs/filesystemresize.h"
#include "fs/usedblocks.h"
#include "move/alignedbuffer.h"
#include "ops/partitioncopy.h"
#include "ops/pastesource.h"
#include "ops/tableeditor.h"

#include <cstring>

namespace partwise {

namespace {

using move::BlockIo;
using move::Extent;

constexpr qint64 kWipeBytes = 1 << 20;

struct Placed
{
    int number = 0;
    qint64 start = 0, end = 0;
    PartitionInfo::Kind kind = PartitionInfo::Kind::Primary;
};

// Where libparted puts the paste on the disk `before` shows: worked out in memory, and again
// right before the commit (a TableEditor holds libparted's lock, which the copy must not).
bool place(const OperationContext &context, const Operation &op, const DiskLayout &before,
           Placed *placed, QString *error, bool commit)
{
    TableEditor editor(context.ask);
    if (!editor.open(before, error) || !editor.apply(op, context.policy, error, &placed->number))
        return false;
    const DiskLayout after = editor.layout(); // a copy: `p` points into it
    const PartitionInfo *p = after.partitionByNumber(placed->number);
    if (!p) {
        *error = QStringLiteral("libparted placed no partition.");
        return false;
    }
    if (commit && (p->startSector != placed->start || p->endSector != placed->end)) {
        *error = QStringLiteral("The partition would now go to sectors %1–%2, not %3–%4 where "
                                "its data was copied; the table was not changed.")
                     .arg(p->startSector)
                     .arg(p->endSector)
                     .arg(placed->start)
                     .arg(placed->end);
        return false;
    }
    placed->start = p->startSector;
    placed->end = p->endSector;
    placed->kind = p->kind;
    return !commit || editor.commit(error);
}

class PasteJob
{
public:
    PasteJob(const OperationContext &context, const std::atomic<bool> *cancel)
        : m_context(context), m_cancel(cancel)
    {
    }

    bool run(const Operation &asked, const DiskLayout &before, QString *error, bool *resumable)
    {
        const PasteSourceRead read = readPasteSource(asked.sourcePath, asked.sourceNumber);
        if (!read.ok)
            return refuse(read.error, error);
        if (const QStringList busy = pasteSourceRefusals(read); !busy.isEmpty())
            return refuse(busy.join(QLatin1Char(' ')), error);
        Operation op = asked;
        op.source = read.source;
        Placed placed;
        if (!place(m_context, op, before, &placed, error, false))
            return false;
        const qint64 tss = before.device.topology.logicalSectorSize;
        const qint64 sss = read.source.sectorSize;
        if (sameDiskOrImage(op.sourcePath, m_context.target)) {
            const qint64 a0 = read.partition.startSector * sss;
            const qint64 a1 = (read.partition.endSector + 1) * sss;
            const qint64 b0 = placed.start * tss, b1 = (placed.end + 1) * tss;
            if (a0 < b1 && b0 < a1)
                return refuse(QStringLiteral("the paste at sectors %1–%2 would overlap its own "
                                             "source, partition %3.")
                                  .arg(placed.start)
                                  .arg(placed.end)
                                  .arg(op.sourceNumber),
                              error);
        }
        const CopyPartitionPlan p = planOf(op, read, placed, tss);
        m_context.log(QStringLiteral("  partition %1 of %2 (%3) goes to sectors %4–%5 as "
                                     "partition %6")
                          .arg(op.sourceNumber)
                          .arg(op.sourcePath, p.filesystem)
                          .arg(placed.start)
                          .arg(placed.end)
                          .arg(placed.number));
        if (p.data != CopyData::Recreate && !copyData(op.sourcePath, p, sss, tss, error, resumable))
            return false;
        QString check;
        if (!finishCopiedFilesystem(m_context.target, tss, p, true, m_context.log, &check, error))
            return false;
        // Last of all the entry: only now does the copy show as a partition.
        if (!place(m_context, op, before, &placed, error, true))
            return false;
        m_context.log(QStringLiteral("  partition %1 added to the table").arg(placed.number));
        return true;
    }

private:
    bool refuse(const QString &why, QString *error)
    {
        *error = why + QStringLiteral(" Nothing was written.");
        return false;
    }

    static CopyPartitionPlan planOf(const Operation &op, const PasteSourceRead &read,
                                    const Placed &placed, qint64 tss)
    {
        CopyPartitionPlan p;
        p.sourceNumber = op.sourceNumber;
        p.targetNumber = placed.number;
        p.kind = placed.kind;
        p.filesystem = read.partition.filesystem;
        p.label = read.partition.label;
        p.uuid = read.partition.uuid;
        p.oldStart = read.partition.startSector;
        p.oldEnd = read.partition.endSector;
        p.newStart = placed.start;
        p.newEnd = placed.end;
        p.filesystemBytes = read.source.filesystemBytes;
        // NTFS is not measured but fills its partition (its backup boot sector is the last).
        if (p.filesystem == QLatin1String("ntfs") && p.filesystemBytes == 0)
            p.filesystemBytes = read.source.lengthBytes;
        const qint64 newBytes = (placed.end - placed.start + 1) * tss;
        if (p.filesystem == QLatin1String("swap")) {
            p.data = CopyData::Recreate;
            return p;
        }
        p.data = usedExtentsSupported(p.filesystem) ? CopyData::UsedBlocks : CopyData::Whole;
        if (p.filesystemBytes > 0 && newBytes > p.filesystemBytes && canGrowUnmounted(p.filesystem))
            p.newFilesystemBytes = newBytes;
        return p;
    }

    // The free space's old signatures go first (its start and end), so nothing but the copy is
    // found there; then the filesystem's used blocks, read back and compared.
    bool copyData(const QString &sourcePath, const CopyPartitionPlan &p, qint64 sss, qint64 tss,
                  QString *error, bool *resumable)
    {
        int e = 0;
        const auto source = move::openFileBlockIo(sourcePath, BlockIo::Access::ReadOnly, &e);
        if (!source)
            return refuse(QStringLiteral("Cannot read %1: %2")
                              .arg(sourcePath, QString::fromLocal8Bit(std::strerror(e))),
                          error);
        const auto target = move::openFileBlockIo(m_context.target, BlockIo::Access::ReadWrite, &e);
        if (!target)
            return refuse(QStringLiteral("Cannot write %1: %2")
                              .arg(m_context.target, QString::fromLocal8Bit(std::strerror(e))),
                          error);
        const quint64 toBase = quint64(p.newStart * tss);
        const quint64 newBytes = quint64((p.newEnd - p.newStart + 1) * tss);
        const quint64 wipe = std::min<quint64>(kWipeBytes, newBytes);
        move::AlignedBuffer zeros(kWipeBytes);
        std::memset(zeros.data(), 0, kWipeBytes);
        for (const quint64 at : {toBase, toBase + newBytes - wipe})
            if ((e = move::writeOrPunch(*target, zeros.data(), wipe, at)) != 0) {
                *error = QStringLiteral("Clearing the free space of %1 at byte %2: %3")
                             .arg(m_context.target)
                             .arg(at)
                             .arg(QString::fromLocal8Bit(std::strerror(e)));
                return false;
            }
        const qint64 fromBase = p.oldStart * sss;
        const qint64 length = std::min<qint64>((p.oldEnd - p.oldStart + 1) * sss, qint64(newBytes));
        std::vector<Extent> extents{Extent{0, quint64(length)}};
        if (p.data == CopyData::UsedBlocks) {
            QString why;
            if (auto used = usedExtents(sourcePath, fromBase, length, p.filesystem, &why))
                extents = *used;
            else
                m_context.log(QStringLiteral("  copying every byte: %1").arg(why));
        }
        ChunkCopyRequest request;
        request.from = source.get();
        request.fromBase = quint64(fromBase);
        request.to = target.get();
        request.toBase = toBase;
        request.chunks = copyChunksOf(extents);
        request.what = QStringLiteral("partition %1 of %2").arg(p.sourceNumber).arg(sourcePath);
        request.cancelledText = QStringLiteral("Cancelled while copying; the table is unchanged.");
        request.cancel = m_cancel;
        request.log = m_context.log;
        quint64 bytes = 0;
        for (const Extent &c : request.chunks)
            bytes += c.length;
        m_context.log(QStringLiteral("  copying %1 bytes in %2 chunks, then verifying")
                          .arg(bytes)
                          .arg(request.chunks.size()));
        const ChunkCopyResult copied = copyChunks(request);
        if (!copied.ok) {
            *error = copied.error;
            *resumable = m_cancel && m_cancel->load();
            return false;
        }
        return true;
    }

    const OperationContext &m_context;
    const std::atomic<bool> *m_cancel;
};

} // namespace

bool executePaste(const OperationContext &context, const Operation &op, const DiskLayout &before,
                  const QString &tableBefore, const std::atomic<bool> *cancel, QString *error,
                  bool *resumable)
{
    if (!tableBefore.isEmpty() && tableSummary(before) != tableBefore) {
        context.log(QStringLiteral("  the pasted partition is already in the table"));
        return true;
    }
    return PasteJob(context, cancel).run(op, before, error, resumable);
}

} // namespace partwise
