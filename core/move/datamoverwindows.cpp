// Copying a plan cut to the shift (MovePlan::cutToShift), where every chunk's destination covers
// the source of the chunk before it. The chunks are read a window at a time (32 MiB), their
// checksums go into the journal's table with one window record, and each window is then kept
// safe one of two ways (OverlapWay), chosen per window by OverlapChooser from the time the
// windows take:
// - a flush per shift: the window is written chunk by chunk with a sync wherever a destination
//   covers a source written since the last sync. A resume tells a finished chunk from an
//   unfinished one by its destination's checksum (durable before the chunks were written), and
//   copies the unfinished ones again from their intact sources. No byte is written twice.
// - journaled: the window record carries the window's sources, and the window is written with
//   no sync until its end. A resume writes the whole window again from the record. Every byte is
//   written twice, with two syncs per window.
// Either way the window's last writes are synced before the next window record, which declares
// every chunk before it durable; so the way may change at any window.

#include "datamover.h"

#include "alignedbuffer.h"
#include "checksum.h"
#include "journallayout.h"
#include "movejournal.h"
#include "movemessages.h"
#include "moveplan.h"
#include "overlapchooser.h"
#include "readaheadguard.h"
#include "resumemessages.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <numeric>

namespace partwise::move {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Chunks [first, end) of the plan and where each one's data sits in the window's buffer: in
// ascending source order, so that chunks with adjacent sources are read with a single read.
struct Window
{
    std::size_t first = 0;
    std::size_t end = 0;
    std::uint64_t bytes = 0;
    std::vector<std::uint64_t> memoryOffset; // per chunk, from `first`

    struct Read
    {
        std::uint64_t sourceOffset = 0;
        std::uint64_t memoryOffset = 0;
        std::uint64_t length = 0;
        std::size_t chunk = 0; // one of the chunks it covers, for messages
    };
    std::vector<Read> reads;
};

// Chunks [first, end), laid out in memory (and in a journaled window's record) by source.
Window windowOf(const MovePlan &plan, std::size_t first, std::size_t end)
{
    Window window;
    window.first = first;
    window.end = end;
    std::vector<std::size_t> bySource(window.end - first);
    std::iota(bySource.begin(), bySource.end(), first);
    std::sort(bySource.begin(), bySource.end(), [&plan](std::size_t a, std::size_t b) {
        return plan.chunks[a].sourceOffset < plan.chunks[b].sourceOffset;
    });
    window.memoryOffset.resize(bySource.size());
    std::uint64_t memory = 0;
    for (const std::size_t index : bySource) {
        const MoveChunk &chunk = plan.chunks[index];
        window.memoryOffset[index - first] = memory;
        if (!window.reads.empty() &&
            window.reads.back().sourceOffset + window.reads.back().length == chunk.sourceOffset)
            window.reads.back().length += chunk.length;
        else
            window.reads.push_back({chunk.sourceOffset, memory, chunk.length, index});
        memory += chunk.length;
    }
    window.bytes = memory;
    return window;
}

Window windowFrom(const MovePlan &plan, std::size_t first, std::uint64_t limit)
{
    std::size_t end = first;
    std::uint64_t bytes = 0;
    while (end < plan.chunks.size() && (end == first || bytes + plan.chunks[end].length <= limit))
        bytes += plan.chunks[end++].length;
    return windowOf(plan, first, end);
}

struct WindowRead
{
    int error = 0;
    std::size_t failedChunk = 0;
    std::vector<std::uint64_t> checksums; // per chunk, from `first`
};

std::future<WindowRead> readWindow(BlockIo &device, const MovePlan &plan, const Window &window,
                                   unsigned char *memory)
{
    return std::async(std::launch::async, [&device, &plan, window, memory] {
        WindowRead read;
        for (const Window::Read &part : window.reads) {
            read.error =
                readInPieces(device, memory + part.memoryOffset, part.length, part.sourceOffset);
            if (read.error != 0) {
                read.failedChunk = part.chunk;
                return read;
            }
        }
        for (std::size_t index = window.first; index < window.end; ++index)
            read.checksums.push_back(checksum64(memory + window.memoryOffset[index - window.first],
                                                plan.chunks[index].length));
        return read;
    });
}

// The sources written over since the last sync must stay readable until their chunks are
// durable; kept as one enclosing interval, which can only ask for extra syncs.
struct UnsyncedSources
{
    std::uint64_t low = UINT64_MAX;
    std::uint64_t high = 0;

    bool coveredBy(const MoveChunk &chunk) const
    {
        return chunk.destinationOffset < high && low < chunk.destinationOffset + chunk.length;
    }
    void add(const MoveChunk &chunk)
    {
        low = std::min(low, chunk.sourceOffset);
        high = std::max(high, chunk.sourceOffset + chunk.length);
    }
    void clear() { *this = UnsyncedSources(); }
};

} // namespace

MoveOutcome DataMover::copyInWindows(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                     AlignedBuffer &recordBuffer, std::size_t firstChunk,
                                     bool unsynced, BackgroundVerifier *behind)
{
    const QString &journalPath = journal.path();
    const QString again = resumeCommand(journalPath, device.path());
    const std::size_t count = plan.chunks.size();
    std::uint64_t done = plan.bytesBefore(firstChunk);
    auto stopped = [&](MoveOutcome::Status status, const QString &message) {
        return stoppedPartWay(status, message, journalPath);
    };
    auto writeFailed = [&](const MoveChunk &chunk, int code) {
        return stopped(MoveOutcome::Status::IoError,
                       destinationUnwritable(chunk.length, chunk.destinationOffset, device.path(),
                                             code, again));
    };

    // One window is written while the next one is read: in plan order a destination never
    // covers the source of a later chunk. Each buffer is laid out as a record, so a journaled
    // window's record is written from it in one write.
    const std::uint64_t windowBytes = windowBytesOf(journal.request(), plan);
    const std::uint64_t bufferBytes = MoveJournal::kRecordHeaderSize + roundUpToBlock(windowBytes);
    AlignedBuffer memory[2] = {AlignedBuffer::forReading(bufferBytes),
                               AlignedBuffer::forReading(bufferBytes)};
    if (memory[0].isNull() || memory[1].isNull())
        return stopped(MoveOutcome::Status::Cancelled, noMemoryToContinue(windowBytes, again));
    Window window = windowFrom(plan, firstChunk, windowBytes);
    std::future<WindowRead> ahead;
    if (window.first < count)
        ahead = readWindow(device, plan, window, MoveJournal::dataOf(memory[0]));
    const ReadAheadGuard<WindowRead> drain(ahead);

    // A journal made for a flush per shift has no room for a window's sources.
    const bool mayJournal = journal.recordData() >= std::min(windowBytes, plan.bytesToCopy);
    const std::uint64_t windowsLeft = (plan.bytesToCopy - done + windowBytes - 1) / windowBytes;
    OverlapChooser chooser(mayJournal ? journal.request().overlapWay : OverlapWay::FlushPerShift,
                           windowsLeft, plan.largestChunk, windowBytes);
    note(chooser.startNote());
    // The window before, timed from its sources read to the sync that ends it (done once the
    // next window is read, so no read waits behind that sync).
    struct Timed
    {
        OverlapWay way = OverlapWay::FlushPerShift;
        std::uint64_t bytes = 0;
        double seconds = 0;
    } last;
    auto lastSynced = [&](Clock::time_point syncStart) {
        if (last.bytes > 0)
            note(chooser.windowDone(last.way, last.bytes, last.seconds + secondsSince(syncStart)));
    };

    for (int parity = 0; window.first < count; parity = 1 - parity) {
        const WindowRead read = ahead.get();
        if (read.error != 0) {
            const MoveChunk &chunk = plan.chunks[read.failedChunk];
            return stopped(MoveOutcome::Status::IoError,
                           sourceUnreadable(chunk.length, chunk.sourceOffset, device.path(),
                                            read.error, again));
        }

        // The window record declares every earlier chunk durable, and must itself be durable
        // before the first of its chunks is written.
        int code = journal.setChunkChecksums(window.first, read.checksums);
        const Clock::time_point syncStart = Clock::now();
        if (code == 0 && unsynced && (code = device.sync()) != 0)
            return writeFailed(plan.chunks[window.first - 1], code);
        lastSynced(syncStart);
        const OverlapWay way = chooser.next();
        const Clock::time_point start = Clock::now();
        unsigned char *const data = MoveJournal::dataOf(memory[parity]);
        if (code == 0 && way == OverlapWay::JournalWindow) {
            // The record's last block is padded with zeros, not with whatever the memory held.
            std::memset(data + window.bytes, 0, roundUpToBlock(window.bytes) - window.bytes);
            code = journal.writeWindowRecord(window.first, window.end, memory[parity], window.bytes,
                                             checksum64(data, window.bytes));
        } else if (code == 0) {
            code = journal.writeWindowRecord(window.first, window.end, recordBuffer);
        }
        if (code != 0)
            return stopped(MoveOutcome::Status::IoError,
                           journalUnwritable(journalPath, code, again));
        // Read only now: a read queued on the same disk would delay the syncs above.
        const Window next = windowFrom(plan, window.end, windowBytes);
        if (next.first < count)
            ahead = readWindow(device, plan, next, MoveJournal::dataOf(memory[1 - parity]));

        UnsyncedSources written;
        for (std::size_t index = window.first; index < window.end; ++index) {
            if (cancelled())
                return stopped(MoveOutcome::Status::Cancelled,
                               pausedPartWay(done, plan.bytesToCopy, again));
            const MoveChunk &chunk = plan.chunks[index];
            // Journaled, every source of the window is in the record: no sync until its end.
            if (way == OverlapWay::FlushPerShift && written.coveredBy(chunk)) {
                if ((code = device.sync()) != 0)
                    return writeFailed(plan.chunks[index - 1], code);
                written.clear();
            }
            const unsigned char *chunkData = data + window.memoryOffset[index - window.first];
            if ((code = writeOrPunch(device, chunkData, chunk.length, chunk.destinationOffset)) !=
                0)
                return writeFailed(chunk, code);
            written.add(chunk);
            if (behind)
                behind->written(index, read.checksums[index - window.first]);
            done += chunk.length;
            m_bytesThisRun += chunk.length;
            report(MoveProgress::Phase::Copying, done, plan.bytesToCopy);
        }
        last = {way, window.bytes, secondsSince(start)};
        unsynced = true;
        window = next;
    }

    if (unsynced) {
        const Clock::time_point syncStart = Clock::now();
        if (const int code = device.sync())
            return writeFailed(plan.chunks.back(), code);
        lastSynced(syncStart);
    }
    // Verification needs the memory for its own buffers.
    memory[0] = AlignedBuffer();
    memory[1] = AlignedBuffer();
    return copied(device, journal, plan, recordBuffer, behind);
}

MoveOutcome DataMover::resumeWindow(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                    AlignedBuffer &recordBuffer, const MoveJournal::Record &record)
{
    const QString &journalPath = journal.path();
    const QString again = resumeCommand(journalPath, device.path());
    if (record.hasData && !record.dataLost)
        return restoreWindow(device, journal, plan, recordBuffer, record);
    // Without its data (torn as it was written, which was before any of the window's writes,
    // or damaged since) a journaled window is finished like the other kind: a chunk whose
    // source was overwritten is found done at its destination, or resume refuses.
    // The chunk buffer of a record buffer holds the largest chunk.
    unsigned char *data = MoveJournal::dataOf(recordBuffer);

    // A chunk whose destination does not hold its checksum is copied again. Its source is
    // intact: the chunk writing over it was only started once this one was durable, and then
    // its destination would match.
    auto readFailed = [&](const MoveChunk &chunk, std::uint64_t offset, int code) {
        return stoppedPartWay(MoveOutcome::Status::IoError,
                              sourceUnreadable(chunk.length, offset, device.path(), code, again),
                              journalPath);
    };
    std::vector<std::size_t> unfinished;
    for (std::size_t index = record.sequence; index < record.scanEnd; ++index) {
        const MoveChunk &chunk = plan.chunks[index];
        if (const int code = device.readAt(data, chunk.length, chunk.destinationOffset))
            return readFailed(chunk, chunk.destinationOffset, code);
        if (checksum64(data, chunk.length) != journal.chunkChecksum(index))
            unfinished.push_back(index);
    }
    // Every source to copy again is checked before the first write, so a resume that cannot
    // finish stops with the disk as it found it.
    auto readSource = [&](std::size_t index, bool *matches) {
        const MoveChunk &chunk = plan.chunks[index];
        const int code = device.readAt(data, chunk.length, chunk.sourceOffset);
        *matches = code == 0 && checksum64(data, chunk.length) == journal.chunkChecksum(index);
        return code;
    };
    for (const std::size_t index : unfinished) {
        const MoveChunk &chunk = plan.chunks[index];
        bool matches = false;
        if (const int code = readSource(index, &matches))
            return readFailed(chunk, chunk.sourceOffset, code);
        if (!matches)
            return stoppedPartWay(MoveOutcome::Status::Refused,
                                  neitherHolds(chunk, device.path(), journalPath), journalPath);
    }
    // After a kill (not a power cut) the finished ones may still be in the page cache; they
    // must be durable before any source of theirs is overwritten.
    if (!unfinished.empty()) {
        const MoveChunk &first = plan.chunks[record.sequence];
        if (const int code = device.sync())
            return stoppedPartWay(MoveOutcome::Status::IoError,
                                  destinationUnwritable(first.length, first.destinationOffset,
                                                        device.path(), code, again),
                                  journalPath);
    }
    for (const std::size_t index : unfinished) {
        const MoveChunk &chunk = plan.chunks[index];
        bool matches = false;
        if (const int code = readSource(index, &matches))
            return readFailed(chunk, chunk.sourceOffset, code);
        if (!matches) // changed since it was checked: something else writes to the disk
            return stoppedPartWay(MoveOutcome::Status::VerifyFailed,
                                  neitherHolds(chunk, device.path(), journalPath, false),
                                  journalPath);
        int code = writeOrPunch(device, data, chunk.length, chunk.destinationOffset);
        if (code == 0)
            code = device.sync();
        if (code != 0)
            return stoppedPartWay(MoveOutcome::Status::IoError,
                                  destinationUnwritable(chunk.length, chunk.destinationOffset,
                                                        device.path(), code, again),
                                  journalPath);
    }
    return copyInWindows(device, journal, plan, recordBuffer, record.scanEnd, true);
}

MoveOutcome DataMover::restoreWindow(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                     AlignedBuffer &recordBuffer, const MoveJournal::Record &record)
{
    const QString &journalPath = journal.path();
    const Window window = windowOf(plan, record.sequence, record.scanEnd);
    const unsigned char *data = MoveJournal::dataOf(recordBuffer);
    // Every chunk is checked against the table before the first write.
    bool sound = record.dataLength == window.bytes;
    for (std::size_t index = window.first; sound && index < window.end; ++index)
        sound = checksum64(data + window.memoryOffset[index - window.first],
                           plan.chunks[index].length) == journal.chunkChecksum(index);
    if (!sound)
        return outcome(MoveOutcome::Status::Refused,
                       journal.damageMessage(QStringLiteral(
                           "its newest record's window does not fit the move's plan")),
                       journalPath);
    // The window's writes may have reached the disk in any order: all of it is written again.
    for (std::size_t index = window.first; index < window.end; ++index) {
        const MoveChunk &chunk = plan.chunks[index];
        int code = writeOrPunch(device, data + window.memoryOffset[index - window.first],
                                chunk.length, chunk.destinationOffset);
        if (code == 0 && index + 1 == window.end)
            code = device.sync();
        if (code != 0)
            return stoppedPartWay(MoveOutcome::Status::IoError,
                                  destinationUnwritable(chunk.length, chunk.destinationOffset,
                                                        device.path(), code,
                                                        resumeCommand(journalPath, device.path())),
                                  journalPath);
    }
    return copyInWindows(device, journal, plan, recordBuffer, record.scanEnd, false);
}

} // namespace partwise::move
