// Copying a plan cut to the shift (MovePlan::cutToShift), where every chunk's destination covers
// the source of the chunk before it. Safety needs a device sync between such chunks, and nothing
// more: a resume can tell a finished chunk from an unfinished one by its destination's checksum,
// if the checksums were durable before the chunks were written. So the chunks are read a window
// at a time (32 MiB), their checksums go into the journal's table with one window record, and
// then the window is written chunk by chunk with a sync wherever a destination covers a source
// written since the last sync. Compared with a record per chunk this saves two journal syncs per
// chunk; compared with journaling the data it saves writing every byte twice.

#include "datamover.h"

#include "alignedbuffer.h"
#include "checksum.h"
#include "movejournal.h"
#include "movemessages.h"
#include "moveplan.h"
#include "readaheadguard.h"
#include "resumemessages.h"

#include <algorithm>
#include <future>
#include <numeric>

namespace partwise::move {

namespace {

constexpr std::uint64_t kWindowBytes = 32ULL << 20;

// Chunks [first, end) of the plan and where each one's data sits in the window's buffer: in
// ascending source order, so that chunks with adjacent sources are read with a single read.
struct Window
{
    std::size_t first = 0;
    std::size_t end = 0;
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

Window windowFrom(const MovePlan &plan, std::size_t first, std::uint64_t limit)
{
    Window window;
    window.first = first;
    window.end = first;
    std::uint64_t bytes = 0;
    while (window.end < plan.chunks.size() &&
           (window.end == first || bytes + plan.chunks[window.end].length <= limit))
        bytes += plan.chunks[window.end++].length;

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
    return window;
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
    // covers the source of a later chunk.
    const std::uint64_t windowBytes = std::max(kWindowBytes, plan.largestChunk);
    AlignedBuffer memory[2] = {AlignedBuffer::forReading(windowBytes),
                               AlignedBuffer::forReading(windowBytes)};
    if (memory[0].isNull() || memory[1].isNull())
        return stopped(MoveOutcome::Status::Cancelled, noMemoryToContinue(windowBytes, again));
    Window window = windowFrom(plan, firstChunk, windowBytes);
    std::future<WindowRead> ahead;
    if (window.first < count)
        ahead = readWindow(device, plan, window, memory[0].data());
    const ReadAheadGuard<WindowRead> drain(ahead);

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
        if (code == 0 && unsynced && (code = device.sync()) != 0)
            return writeFailed(plan.chunks[window.first - 1], code);
        if (code == 0 && unsynced && behind)
            behind->durable();
        if (code == 0)
            code = journal.writeWindowRecord(window.first, window.end, recordBuffer);
        if (code != 0)
            return stopped(MoveOutcome::Status::IoError,
                           journalUnwritable(journalPath, code, again));
        // Read only now: a read queued on the same disk would delay the syncs above.
        const Window next = windowFrom(plan, window.end, windowBytes);
        if (next.first < count)
            ahead = readWindow(device, plan, next, memory[1 - parity].data());

        UnsyncedSources written;
        for (std::size_t index = window.first; index < window.end; ++index) {
            if (cancelled())
                return stopped(MoveOutcome::Status::Cancelled,
                               pausedPartWay(done, plan.bytesToCopy, again));
            const MoveChunk &chunk = plan.chunks[index];
            if (written.coveredBy(chunk)) {
                if ((code = device.sync()) != 0)
                    return writeFailed(plan.chunks[index - 1], code);
                written.clear();
                if (behind)
                    behind->durable();
            }
            const unsigned char *data =
                memory[parity].data() + window.memoryOffset[index - window.first];
            if ((code = writeOrPunch(device, data, chunk.length, chunk.destinationOffset)) != 0)
                return writeFailed(chunk, code);
            written.add(chunk);
            if (behind)
                behind->written(index, read.checksums[index - window.first]);
            done += chunk.length;
            m_bytesThisRun += chunk.length;
            report(MoveProgress::Phase::Copying, done, plan.bytesToCopy);
        }
        unsynced = true;
        window = next;
    }

    if (unsynced) {
        if (const int code = device.sync())
            return writeFailed(plan.chunks.back(), code);
    }
    if (behind)
        behind->durable();
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

} // namespace partwise::move
