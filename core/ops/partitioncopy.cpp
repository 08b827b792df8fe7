#include "ops/partitioncopy.h"

#include "fs/fatsectorsize.h"
#include "fs/filesystemformatter.h"
#include "fs/filesystemkinds.h"
#include "fs/filesystemresize.h"
#include "fs/filesystemtools.h"
#include "fs/filesystemuuid.h"
#include "fs/ntfssectorsize.h"
#include "move/alignedbuffer.h"
#include "move/backgroundverifier.h"
#include "move/checksum.h"
#include "move/moveplan.h"
#include "move/readaheadguard.h"
#include "ops/journaledfixups.h"
#include "ops/partitionaccess.h"

#include <QElapsedTimer>

#include <cstring>
#include <future>
#include <memory>

namespace partwise {

using move::BlockIo;
using move::Extent;

namespace {

constexpr quint64 kChunk = 4 << 20;
constexpr qint64 kSaveEveryMs = 1000;

QString ioText(const QString &what, int error)
{
    return QStringLiteral("%1: %2").arg(what, QString::fromLocal8Bit(std::strerror(error)));
}

class ChunkCopy
{
public:
    explicit ChunkCopy(const ChunkCopyRequest &r) : m_r(r) { m_result.chunksDone = r.chunksDone; }

    ChunkCopyResult run()
    {
        if (copy() && (!m_r.verify || verify()))
            m_result.ok = true;
        return m_result;
    }

private:
    bool failed(const QString &error)
    {
        m_result.error = error;
        return false;
    }

    bool readInto(BlockIo &io, move::AlignedBuffer &buffer, quint64 length, quint64 offset,
                  const QString &what)
    {
        const int e = io.readAt(buffer.data(), std::size_t(length), offset);
        return e == 0 || failed(ioText(QStringLiteral("Reading %1 at byte %2 of %3")
                                           .arg(what)
                                           .arg(offset)
                                           .arg(io.path()),
                                       e));
    }

    bool cancelled() const { return m_r.cancel && m_r.cancel->load(); }

    bool persist(qint64 done)
    {
        m_result.chunksDone = done;
        QString error;
        return !m_r.persist || m_r.persist(done, &error) || failed(error);
    }

    void counted(quint64 bytes, bool now)
    {
        if (m_r.copied)
            m_r.copied(bytes, now);
    }

    // A chunk's source, read (and checksummed) on another thread while the one before it is
    // written: source and destination never overlap (a copy reads another disk, a paste a
    // partition elsewhere on the disk), so reading ahead is always safe.
    struct SourceRead
    {
        int error = 0;
        std::uint64_t checksum = 0;
    };

    std::future<SourceRead> readAhead(std::size_t c)
    {
        const Extent chunk = m_r.chunks[c];
        unsigned char *data = m_buffers[c % 2].data();
        BlockIo *from = m_r.from;
        const quint64 at = m_r.fromBase + chunk.offset;
        return std::async(std::launch::async, [from, data, chunk, at] {
            SourceRead read;
            read.error = from->readAt(data, std::size_t(chunk.length), at);
            if (read.error == 0)
                read.checksum = move::checksum64(data, chunk.length);
            return read;
        });
    }

    bool copy()
    {
        const std::vector<Extent> &chunks = m_r.chunks;
        m_sums.assign(chunks.size(), 0);
        m_summed.assign(chunks.size(), false);
        for (std::size_t c = 0; c < chunks.size() && qint64(c) < m_r.chunksDone; ++c)
            counted(chunks[c].length, false);
        const std::size_t first = std::size_t(std::max<qint64>(m_r.chunksDone, 0));
        // Each chunk is read back and compared on a thread of its own as soon as it is written,
        // while the copy goes on (move/backgroundverifier.h).
        if (m_r.verify)
            startVerifier();
        std::future<SourceRead> ahead;
        if (first < chunks.size())
            ahead = readAhead(first);
        const move::ReadAheadGuard<SourceRead> drain(ahead);
        QElapsedTimer sinceSave;
        sinceSave.start();
        for (std::size_t c = first; c < chunks.size(); ++c) {
            if (cancelled()) {
                m_r.to->sync();
                persist(m_result.chunksDone);
                return failed(m_r.cancelledText);
            }
            const SourceRead read = ahead.get();
            if (c + 1 < chunks.size())
                ahead = readAhead(c + 1);
            const quint64 from = m_r.fromBase + chunks[c].offset;
            if (read.error != 0)
                return failed(ioText(QStringLiteral("Reading %1 at byte %2 of %3")
                                         .arg(m_r.what)
                                         .arg(from)
                                         .arg(m_r.from->path()),
                                     read.error));
            m_sums[c] = read.checksum;
            m_summed[c] = true;
            const quint64 to = m_r.toBase + chunks[c].offset;
            if (const int e =
                    move::writeOrPunch(*m_r.to, m_buffers[c % 2].data(), chunks[c].length, to))
                return failed(
                    ioText(QStringLiteral("Writing %1 at byte %2").arg(m_r.to->path()).arg(to), e));
            if (m_verifier)
                m_verifier->written(c, read.checksum);
            counted(chunks[c].length, true);
            if (sinceSave.elapsed() >= kSaveEveryMs || c + 1 == chunks.size()) {
                if (const int e = m_r.to->sync())
                    return failed(ioText(QStringLiteral("Syncing %1").arg(m_r.to->path()), e));
                if (!persist(qint64(c + 1)))
                    return false;
                sinceSave.restart();
            }
        }
        return true;
    }

    void startVerifier()
    {
        m_plan.chunks.reserve(m_r.chunks.size());
        for (const Extent &e : m_r.chunks)
            m_plan.chunks.push_back(
                {m_r.fromBase + e.offset, m_r.toBase + e.offset, e.length, false});
        m_plan.largestChunk = kChunk;
        m_verifier = std::make_unique<move::BackgroundVerifier>(*m_r.to, m_plan, m_r.cancel);
        if (!m_verifier->running())
            m_verifier.reset(); // no buffer: the pass after the copy reads everything back
    }

    // The chunks the copy's own run wrote were read back behind it; what is left is a resumed
    // copy's earlier chunks (or all of them, when no read-back ran beside the copy).
    bool verify()
    {
        if (m_r.verifying)
            m_r.verifying();
        std::size_t unchecked = m_r.chunks.size();
        if (m_verifier) {
            const move::VerifyFailure failure = m_verifier->finish();
            if (failure.kind == move::VerifyFailure::Kind::Cancelled) {
                persist(m_result.chunksDone);
                return failed(m_r.cancelledText);
            }
            if (failure)
                return readBackFailed(failure);
            unchecked = std::size_t(std::max<qint64>(m_r.chunksDone, 0));
        }
        for (std::size_t c = 0; c < unchecked; ++c)
            if (!verifyChunk(c))
                return false;
        if (m_r.log)
            m_r.log(QStringLiteral("  verified"));
        return true;
    }

    bool readBackFailed(const move::VerifyFailure &failure)
    {
        std::size_t c = 0;
        while (c < m_plan.chunks.size() &&
               m_plan.chunks[c].destinationOffset + m_plan.chunks[c].length <= failure.offset)
            ++c;
        persist(qint64(c)); // copy it again from there
        if (failure.kind == move::VerifyFailure::Kind::Unreadable)
            return failed(ioText(QStringLiteral("Reading the copy at byte %1 of %2")
                                     .arg(failure.offset)
                                     .arg(m_r.to->path()),
                                 failure.error));
        return failed(mismatchText(failure.offset));
    }

    QString mismatchText(quint64 to) const
    {
        return QStringLiteral("%1: the copy at byte %2 of %3 does not read back as written (a "
                              "failing disk?).")
            .arg(m_r.what)
            .arg(to)
            .arg(m_r.to->path());
    }

    bool verifyChunk(std::size_t c)
    {
        const std::vector<Extent> &chunks = m_r.chunks;
        if (cancelled()) {
            persist(m_result.chunksDone);
            return failed(m_r.cancelledText);
        }
        const quint64 from = m_r.fromBase + chunks[c].offset;
        if (!m_summed[c]) { // copied before a resume: the source says what it should be
            if (!readInto(*m_r.from, m_buffers[0], chunks[c].length, from, m_r.what))
                return false;
            m_sums[c] = move::checksum64(m_buffers[0].data(), chunks[c].length);
        }
        const quint64 to = m_r.toBase + chunks[c].offset;
        if (!readInto(*m_r.to, m_buffers[1], chunks[c].length, to, QStringLiteral("the copy")))
            return false;
        if (move::checksum64(m_buffers[1].data(), chunks[c].length) != m_sums[c]) {
            persist(qint64(c)); // copy it again from here
            return failed(mismatchText(to));
        }
        return true;
    }

    const ChunkCopyRequest &m_r;
    ChunkCopyResult m_result;
    move::AlignedBuffer m_buffers[2] = {move::AlignedBuffer::forReading(kChunk),
                                        move::AlignedBuffer::forReading(kChunk)};
    std::vector<std::uint64_t> m_sums;
    std::vector<bool> m_summed;
    move::MovePlan m_plan; // the chunks as the read-back thread knows them
    std::unique_ptr<move::BackgroundVerifier> m_verifier;
};

} // namespace

std::vector<Extent> copyChunksOf(const std::vector<Extent> &extents)
{
    std::vector<Extent> chunks;
    for (const Extent &e : extents)
        for (quint64 done = 0; done < e.length; done += kChunk)
            chunks.push_back({e.offset + done, std::min<quint64>(kChunk, e.length - done)});
    return chunks;
}

QString copyChunkSignature(const std::vector<Extent> &chunks)
{
    const std::uint64_t sum =
        chunks.empty() ? 0 : move::checksum64(chunks.data(), chunks.size() * sizeof(Extent));
    return QStringLiteral("%1:%2").arg(chunks.size()).arg(sum, 16, 16, QLatin1Char('0'));
}

ChunkCopyResult copyChunks(const ChunkCopyRequest &request)
{
    return ChunkCopy(request).run();
}

namespace {

// The grow and the new id run on one copy-on-write view and leave one redo record (".finish"):
// one FUSE mount instead of two, and a resume finds both applied or neither.
bool growAndRenumber(const FilesystemLocation &where, qint64 newBytes, const CopyPartitionPlan &p,
                     bool newIds, RedoJournal redo, const std::function<void(const QString &)> &say,
                     QString *error)
{
    const bool grow = p.grows() && p.data != CopyData::Shrunk;
    const bool renumber = newIds && canChangeFilesystemUuid(p.filesystem);
    if (!grow && !renumber)
        return true;
    redo.path += QStringLiteral(".finish.redo");
    QString failed; // which tool failed, when one did
    const ToolResult r =
        runToolJournaled(where, newBytes, redo, [&](const FilesystemLocation &view) {
            if (grow) {
                const ToolResult g = resizeFilesystem(view, newBytes, p.filesystem, newBytes);
                say(QStringLiteral("  $ %1").arg(g.command));
                if (!g.ok)
                    failed = QStringLiteral("Growing the %1 filesystem of partition %2 failed: %3")
                                 .arg(p.filesystem)
                                 .arg(p.targetNumber)
                                 .arg(g.error);
                if (!g.ok || !renumber)
                    return g;
            }
            // The plan's UUID (empty in a journal from before plans chose it: a random one).
            const ToolResult u = newFilesystemUuid(view, newBytes, p.filesystem, p.newUuid);
            say(QStringLiteral("  $ %1").arg(u.command));
            if (!u.ok)
                failed = QStringLiteral("Giving partition %1 a new UUID failed: %2")
                             .arg(p.targetNumber)
                             .arg(u.error);
            return u;
        });
    if (!r.ok) // else the view or the record failed, as runToolJournaled says
        *error = !failed.isEmpty() ? failed
                                   : QStringLiteral("Finishing partition %1 failed: %2")
                                         .arg(p.targetNumber)
                                         .arg(r.error);
    return r.ok;
}

// Between sector sizes a FAT or NTFS is told the target's (the plan judged that it converts);
// before its hidden sectors, which are then patched where the new geometry puts the backups.
bool convertBootSector(const QString &target, qint64 offset, qint64 bytes,
                       const CopyPartitionPlan &p, qint64 sss, qint64 tss,
                       const std::function<void(const QString &)> &say, QString *error)
{
    const bool ntfs = p.filesystem == QLatin1String("ntfs");
    if (!ntfs && !isFatFilesystem(p.filesystem))
        return true;
    const bool ok = ntfs ? convertNtfsSectorSize(target, offset, bytes, sss, tss, error)
                         : convertFatSectorSize(target, offset, bytes, sss, tss, error);
    if (ok)
        say(QStringLiteral("  partition %1 (%2): bytes per sector %3 -> %4")
                .arg(p.targetNumber)
                .arg(p.filesystem)
                .arg(sss)
                .arg(tss));
    return ok;
}

} // namespace

bool finishCopiedFilesystem(const QString &target, qint64 sss, qint64 tss,
                            const CopyPartitionPlan &p, bool newIds, const RedoJournal &redo,
                            const std::function<void(const QString &)> &log, QString *check,
                            QString *error)
{
    const qint64 newBytes = (p.newEnd - p.newStart + 1) * tss;
    const FilesystemLocation where{target, p.newStart * tss, true};
    const auto say = [&](const QString &line) {
        if (log)
            log(line);
    };
    if (p.data == CopyData::Recreate) {
        FormatRequest req;
        req.filesystem = QStringLiteral("swap");
        req.label = p.label;
        req.uuid = newIds ? p.newUuid : p.uuid;
        req.targetIsImage = true;
        req.target = target;
        req.offsetBytes = where.offset;
        req.sizeBytes = newBytes;
        req.logicalSectorSize = tss;
        const ToolResult r = formatFilesystem(req);
        if (!r.ok) {
            *error = QStringLiteral("Making swap on partition %1 failed: %2")
                         .arg(p.targetNumber)
                         .arg(r.error);
            return false;
        }
        *check = QStringLiteral("partition %1 (swap): recreated").arg(p.targetNumber);
        return true;
    }
    if (p.data == CopyData::None || p.filesystem.isEmpty())
        return true;
    if (sss != tss && !convertBootSector(target, where.offset, newBytes, p, sss, tss, say, error))
        return false;
    // The recorded start through a record of its own, as after a move (ops/journaledfixups.h).
    RedoJournal fixup = fixupRedo(redo);
    fixup.log = say;
    if (!updateHiddenSectorsJournaled(where, newBytes, p.filesystem, p.newStart, fixup, error))
        return false;
    if (!growAndRenumber(where, newBytes, p, newIds, redo, say, error))
        return false;
    if (const QString why = noCheckReason(p.filesystem); !why.isEmpty()) {
        *check = QStringLiteral("partition %1 (%2): not checked: %3")
                     .arg(p.targetNumber)
                     .arg(p.filesystem, why);
        say(QStringLiteral("  check: ") + *check);
        return true;
    }
    const ToolResult r = checkPartitionReadOnly(where, newBytes, p.filesystem);
    const QString verdict =
        r.ok ? QStringLiteral("clean") : QStringLiteral("not clean: ") + r.error;
    *check = QStringLiteral("partition %1 (%2): %3").arg(p.targetNumber).arg(p.filesystem, verdict);
    say(QStringLiteral("  check: ") + *check);
    if (!r.ok && r.exitCode != -1) {
        *error = QStringLiteral("Partition %1 was copied, but its read-only check reports "
                                "problems: %2")
                     .arg(p.targetNumber)
                     .arg(r.error);
        return false;
    }
    return true;
}

} // namespace partwise
