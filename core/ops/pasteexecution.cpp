#include "ops/pasteexecution.h"

#include "base/nofollowfile.h"
#include "boot/partitionentries.h"
#include "device/exclusiveclaim.h"
#include "fs/filesystemresize.h"
#include "fs/usedblocks.h"
#include "move/alignedbuffer.h"
#include "ops/copyshrink.h"
#include "ops/partitioncopy.h"
#include "ops/pastesource.h"
#include "ops/tableeditor.h"
#include "table/tableidentifiers.h"

#include <QDir>
#include <QFile>

#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
    if (!commit)
        return true;
    ExclusiveClaim claim; // the table written with the disk claimed, as every commit is
    const RedoJournal redo = context.tableRedo();
    return claim.takeForTableWrite(context.target, error) &&
           editor.commit(error, redo.path.isEmpty() ? nullptr : &redo);
}

// The source's type (GPT type GUID, MBR type byte) on the new entry, where the target's table
// takes it (ops/copyplan.h's carriedEntry): libparted 3.5 sets a type only through flags, so
// libfdisk writes it after the commit, as the disk copy does. Run again on resume; nothing is
// written when the entry has it already.
bool carryType(const OperationContext &context, const DiskLayout &target, int number,
               const Operation::PasteSource &source, QString *error)
{
    const QString typeId =
        carriedEntry(source.tableType, target.tableType, source.flags, source.typeId).typeId;
    if (typeId.isEmpty() || typeId == QLatin1String("00"))
        return true;
    const qint64 tss = target.device.topology.logicalSectorSize;
    ExclusiveClaim claim; // a table write, as a commit is
    if (!claim.takeForTableWrite(context.target, error))
        return false;
    const int fd = ::open(QFile::encodeName(context.target).constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        *error = QStringLiteral("Partition %1 was pasted, but %2 cannot be opened to give it the "
                                "source's type: %3")
                     .arg(number)
                     .arg(context.target, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    const PartitionEntries entries = readPartitionEntries(fd, tss);
    const PartitionEntry *e = entries.ok ? entries.byNumber(number) : nullptr;
    bool ok = e && e->typeId().compare(typeId, Qt::CaseInsensitive) == 0;
    if (!ok) {
        PartitionIdentity id;
        id.number = number;
        id.typeId = typeId;
        ok = setTableIdentifiers(fd, context.target, tss, {id}, QString(), error);
        if (ok)
            context.log(
                QStringLiteral("  partition %1 has the source's type %2").arg(number).arg(typeId));
        else
            error->prepend(QStringLiteral("Partition %1 was pasted, but giving it the source's "
                                          "type %2 failed. ")
                               .arg(number)
                               .arg(typeId));
    }
    ::close(fd);
    return ok;
}

// The private folder of a shrunk copy, removed when the paste ends however it ends (a kill
// leaves it to the next run, which makes it anew). Only a folder is removed: a link of another
// user's in its place would have it empty whatever the link points at.
class ScratchFolder
{
public:
    explicit ScratchFolder(const QString &path) : m_path(path) {}
    ~ScratchFolder() { remove(); }
    ScratchFolder(const ScratchFolder &) = delete;
    ScratchFolder &operator=(const ScratchFolder &) = delete;

    bool make(QString *why)
    {
        remove();
        return makePrivateFolder(m_path, why);
    }
    QString file() const { return QDir(m_path).filePath(QStringLiteral("paste.img")); }

private:
    void remove()
    {
        struct stat st;
        if (!m_path.isEmpty() && ::lstat(QFile::encodeName(m_path).constData(), &st) == 0 &&
            S_ISDIR(st.st_mode))
            QDir(m_path).removeRecursively();
    }

    QString m_path;
};

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
        PasteSourceRead measured = read;
        measurePasteShrink(&measured, asked.sizeBytes);
        Operation op = asked;
        op.source = measured.source;
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
        logCarried(op.source, before.tableType);
        // A smaller paste: the source's filesystem is shrunk in a sparse copy beside Apply's
        // journal (the disk copy's way, ops/copyshrink.h), never in place; the target gets that
        // copy's blocks.
        ScratchFolder scratch(m_context.scratchFolder);
        QString from = op.sourcePath;
        if (p.data == CopyData::Shrunk) {
            QString why;
            if (m_context.scratchFolder.isEmpty() || !scratch.make(&why))
                return refuse(
                    QStringLiteral("Cannot make a folder for the shrunk copy: %1.").arg(why),
                    error);
            m_context.log(QStringLiteral("  shrinking a copy of its %1 filesystem to %2 bytes")
                              .arg(p.filesystem)
                              .arg(p.newFilesystemBytes));
            const QString shrunk =
                shrinkIntoScratch(op.sourcePath, sss, p, scratch.file(), m_context.log);
            if (!shrunk.isEmpty())
                return refuse(shrunk, error);
            from = scratch.file();
        }
        if (p.data != CopyData::Recreate && !copyData(from, p, sss, tss, error, resumable))
            return false;
        QString check;
        RedoJournal redo;
        redo.path = m_context.journalPath + QStringLiteral(".paste");
        redo.tag = quint64(m_context.operationIndex + 1);
        redo.log = m_context.log;
        // A paste judges no sector-size rule, so it converts no FAT or NTFS boot sector
        // (the source's size is given as the target's).
        if (!finishCopiedFilesystem(m_context.target, tss, tss, p, true, redo, m_context.log,
                                    &check, error))
            return false;
        // Last of all the entry: only now does the copy show as a partition.
        if (!place(m_context, op, before, &placed, error, true))
            return false;
        m_context.log(QStringLiteral("  partition %1 added to the table").arg(placed.number));
        return carryType(m_context, before, placed.number, op.source, error);
    }

private:
    void logCarried(const Operation::PasteSource &source, const QString &table)
    {
        const CarriedEntry carried =
            carriedEntry(source.tableType, table, source.flags, source.typeId);
        QStringList what;
        if (!carried.flags.isEmpty())
            what << QStringLiteral("flags %1").arg(carried.flags.join(QStringLiteral(", ")));
        if (!source.name.isEmpty() && table == QLatin1String("gpt"))
            what << QStringLiteral("the name “%1”").arg(source.name);
        if (!carried.typeId.isEmpty())
            what << QStringLiteral("type %1").arg(carried.typeId);
        if (!what.isEmpty())
            m_context.log(QStringLiteral("  the entry carries ") + what.join(QStringLiteral("; ")));
    }

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
        const qint64 newBytes = (placed.end - placed.start + 1) * tss;
        if (p.filesystem == QLatin1String("swap")) {
            p.data = CopyData::Recreate;
            return p;
        }
        // Smaller than its filesystem (TableEditor::paste allowed it only as far as the
        // filesystem's tool shrinks it): shrunk on the way.
        if (newBytes < read.source.wholeBytes()) {
            p.data = CopyData::Shrunk;
            p.newFilesystemBytes = newBytes;
            if (p.filesystemBytes == 0)
                p.filesystemBytes = read.source.wholeBytes();
            return p;
        }
        p.data = usedExtentsSupported(p.filesystem) ? CopyData::UsedBlocks : CopyData::Whole;
        if (p.filesystemBytes > 0 && newBytes > p.filesystemBytes && canGrowUnmounted(p.filesystem))
            p.newFilesystemBytes = newBytes;
        return p;
    }

    // The free space's old signatures go first (its start and end), so nothing but the copy is
    // found there; then the filesystem's used blocks, read back and compared.
    // `sourcePath` is the source disk, or the shrunk copy of its filesystem (from its byte 0).
    bool copyData(const QString &sourcePath, const CopyPartitionPlan &p, qint64 sss, qint64 tss,
                  QString *error, bool *resumable)
    {
        const bool shrunk = p.data == CopyData::Shrunk;
        // Claimed while the data is written: nothing mounts the new partition meanwhile.
        ExclusiveClaim claim;
        QString inUse;
        if (!claim.take(m_context.target, &inUse)) {
            *error = inUse + QStringLiteral("; nothing more was written.");
            *resumable = true;
            return false;
        }
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
        const qint64 fromBase = shrunk ? 0 : p.oldStart * sss;
        const qint64 length =
            shrunk ? p.newFilesystemBytes
                   : std::min<qint64>((p.oldEnd - p.oldStart + 1) * sss, qint64(newBytes));
        std::vector<Extent> extents{Extent{0, quint64(length)}};
        if (p.data == CopyData::UsedBlocks || shrunk) {
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
        quint64 done = 0;
        request.copied = [this, &done, bytes](quint64 more, bool) {
            done += more;
            if (m_context.copied)
                m_context.copied(done, bytes);
        };
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
        // Killed after the commit: what may be left is the source's type on the entry.
        context.log(QStringLiteral("  the pasted partition is already in the table"));
        const int number = addedPartition(before, tableBefore);
        const PasteSourceRead read = readPasteSource(op.sourcePath, op.sourceNumber);
        if (number <= 0 || !read.ok) {
            context.log(QStringLiteral("  its type is left as it is: %1")
                            .arg(read.ok ? QStringLiteral("the new entry cannot be told apart")
                                         : read.error));
            return true;
        }
        return carryType(context, before, number, read.source, error);
    }
    return PasteJob(context, cancel).run(op, before, error, resumable);
}

} // namespace partwise
