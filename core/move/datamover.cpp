#include "datamover.h"

#include "alignedbuffer.h"
#include "base/shellquote.h"
#include "checksum.h"
#include "movejournal.h"
#include "movemessages.h"
#include "moveplan.h"
#include "readaheadguard.h"
#include "verifyspans.h"

#include <QRegularExpression>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <future>

namespace partwise::move {

namespace {

std::uint64_t nowNanoseconds()
{
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

// Without an overlap forcing one sooner, a record is still written every this many bytes, so
// a resume never redoes more than this.
constexpr std::uint64_t kMaxUnrecordedBytes = 256ULL << 20;
// Verification reads up to this much at once.
constexpr std::uint64_t kVerifySpanBytes = 32ULL << 20;

struct SourceRead
{
    int error = 0;
    std::uint64_t checksum = 0;
};

QString openFailure(const QString &path, int code)
{
    if (code == EROFS || code == EACCES || code == EPERM)
        return QStringLiteral("%1 is read-only (%2), so nothing was moved. Make it writable "
                              "(for a loop device: losetup without -r; for a file: its "
                              "permissions) and try again.")
            .arg(path, errorText(code));
    return QStringLiteral("Cannot open %1 for the move: %2. Nothing was moved.")
        .arg(path, errorText(code));
}

} // namespace

DataMover::DataMover() : m_opener(openFileBlockIo) {}

MoveOutcome DataMover::outcome(MoveOutcome::Status status, const QString &message,
                               const QString &journalPath)
{
    MoveOutcome result;
    result.status = status;
    result.message = message;
    result.journalPath = journalPath;
    return result;
}

QString DataMover::resumeCommand(const QString &journalPath, const QString &devicePath)
{
    return QStringLiteral("partwise-cli resume --journal %1 %2")
        .arg(shellQuoted(journalPath), shellQuoted(devicePath));
}

void DataMover::report(MoveProgress::Phase phase, std::uint64_t done, std::uint64_t total)
{
    if (!m_progress)
        return;
    MoveProgress progress;
    progress.phase = phase;
    progress.bytesDone = done;
    progress.bytesTotal = total;
    const double seconds = static_cast<double>(nowNanoseconds() - m_startNanoseconds) / 1e9;
    if (seconds > 0 && m_bytesThisRun > 0) {
        progress.bytesPerSecond = static_cast<double>(m_bytesThisRun) / seconds;
        progress.secondsLeft = static_cast<double>(total - done) / progress.bytesPerSecond;
    }
    m_progress(progress);
}

MoveOutcome DataMover::run(const MoveRequest &request, const QString &journalPath)
{
    m_bytesThisRun = 0;
    m_startNanoseconds = nowNanoseconds();
    if (const QString problem = request.validate(); !problem.isEmpty())
        return outcome(MoveOutcome::Status::Refused, problem);
    if (const QString problem = MoveJournal::placementProblem(request.devicePath, journalPath);
        !problem.isEmpty())
        return outcome(MoveOutcome::Status::Refused, problem);

    int code = 0;
    std::unique_ptr<BlockIo> device =
        m_opener(request.devicePath, BlockIo::Access::ReadWrite, &code);
    if (!device)
        return outcome(MoveOutcome::Status::Refused, openFailure(request.devicePath, code));
    if (const QString problem = request.validate(device->size()); !problem.isEmpty())
        return outcome(MoveOutcome::Status::Refused, problem);

    const MovePlan plan = planMove(request);
    if (plan.chunks.empty())
        return outcome(MoveOutcome::Status::Completed,
                       QStringLiteral("Nothing to move: source and destination are the same."));

    QString error;
    std::unique_ptr<MoveJournal> journal =
        MoveJournal::create(journalPath, request, plan, device->size(), m_opener, &error);
    if (!journal)
        return outcome(MoveOutcome::Status::Refused, error + QStringLiteral(" Nothing was moved."));
    AlignedBuffer buffer = journal->makeRecordBuffer();
    if (buffer.isNull())
        return outcome(
            MoveOutcome::Status::Refused,
            QStringLiteral("Not enough memory for a %1 buffer.").arg(formatSize(plan.largestChunk)),
            journalPath);
    return copyFrom(*device, *journal, plan, buffer, 0);
}

MoveOutcome DataMover::copyFrom(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                AlignedBuffer &buffer, std::size_t firstChunk)
{
    // Chunks are read back as soon as they are written; only a fresh move's verifier sees every
    // chunk, so a resumed one leaves the whole read-back to the pass after the copy.
    std::unique_ptr<BackgroundVerifier> behind;
    if (journal.request().verify && firstChunk == 0)
        behind = std::make_unique<BackgroundVerifier>(device, plan, m_cancel);
    if (!plan.cutToShift && std::any_of(plan.chunks.begin(), plan.chunks.end(),
                                        [](const MoveChunk &chunk) { return chunk.needsJournal; }))
        note(QStringLiteral("Overlapping data: each chunk's source journaled first; the shift is "
                            "below %1 and half a chunk, too small for a flush per shift.")
                 .arg(formatSize(kMinUnjournaledShift)));
    if (plan.cutToShift)
        return copyInWindows(device, journal, plan, buffer, firstChunk, false, behind.get());
    return execute(device, journal, plan, buffer, firstChunk, behind.get());
}

MoveOutcome DataMover::resume(const QString &journalPath, const QString &devicePath)
{
    m_bytesThisRun = 0;
    m_startNanoseconds = nowNanoseconds();
    QString error;
    std::unique_ptr<MoveJournal> journal = MoveJournal::open(journalPath, m_opener, &error);
    if (!journal)
        return outcome(MoveOutcome::Status::Refused, error);
    MoveRequest request = journal->request();
    if (!devicePath.isEmpty())
        request.devicePath = devicePath;
    const QString again = resumeCommand(journalPath, request.devicePath);

    int code = 0;
    std::unique_ptr<BlockIo> device =
        m_opener(request.devicePath, BlockIo::Access::ReadWrite, &code);
    if (!device)
        return outcome(MoveOutcome::Status::IoError,
                       QStringLiteral("Cannot open %1 to finish the move: %2. Nothing was "
                                      "changed; run `%3` once it can be opened for writing.")
                           .arg(request.devicePath, errorText(code), again),
                       journalPath);
    if (device->size() != journal->deviceSize())
        return outcome(MoveOutcome::Status::Refused,
                       QStringLiteral("The journal %1 belongs to a device of %2 bytes, but %3 "
                                      "has %4 bytes. Give the device the move was started on.")
                           .arg(journalPath)
                           .arg(journal->deviceSize())
                           .arg(request.devicePath)
                           .arg(device->size()),
                       journalPath);
    const MovePlan plan = planMove(request);
    if (plan.fingerprint() != journal->planFingerprint() ||
        plan.chunks.size() != journal->chunkCount())
        return outcome(MoveOutcome::Status::Refused,
                       QStringLiteral("The journal %1 was planned differently than this version "
                                      "of Partwise plans it; finish it with the version that "
                                      "started it.")
                           .arg(journalPath),
                       journalPath);

    AlignedBuffer buffer = journal->makeRecordBuffer();
    if (buffer.isNull())
        return outcome(MoveOutcome::Status::IoError, noMemoryForResume(plan.largestChunk, again),
                       journalPath);
    QString damage;
    const MoveJournal::Record record = journal->latestRecord(buffer, &code, &damage);
    if (code != 0)
        return outcome(MoveOutcome::Status::IoError, journalUnreadable(journalPath, code, again),
                       journalPath);
    if (damage.isEmpty() && record.valid && record.hasData && record.scanEnd == 0 &&
        record.dataLength != plan.chunks[record.sequence].length)
        damage = QStringLiteral("its newest record does not fit the move's plan");
    if (!damage.isEmpty())
        return outcome(MoveOutcome::Status::Refused, journal->damageMessage(damage), journalPath);
    if (!record.valid)
        return copyFrom(*device, *journal, plan, buffer, 0); // killed before the first record
    if (record.sequence == journal->verifiedSequence())
        return finish(*journal);
    if (record.sequence == journal->copyFinishedSequence())
        return verify(*device, *journal, plan, buffer);
    if (record.scanEnd != 0)
        return resumeWindow(*device, *journal, plan, buffer, record);
    return resumeStep(*device, *journal, plan, buffer, record);
}

MoveOutcome DataMover::execute(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                               AlignedBuffer &buffer, std::size_t firstChunk,
                               BackgroundVerifier *behind)
{
    const QString &journalPath = journal.path();
    const QString again = resumeCommand(journalPath, device.path());
    const std::size_t count = plan.chunks.size();
    std::uint64_t done = plan.bytesBefore(firstChunk);

    auto stopped = [&](MoveOutcome::Status status, const QString &message) {
        return stoppedPartWay(status, message, journalPath);
    };
    auto readFailed = [&](const MoveChunk &chunk, int code) {
        return stopped(
            MoveOutcome::Status::IoError,
            sourceUnreadable(chunk.length, chunk.sourceOffset, device.path(), code, again));
    };
    auto writeFailed = [&](const MoveChunk &chunk, int code) {
        return stopped(MoveOutcome::Status::IoError,
                       destinationUnwritable(chunk.length, chunk.destinationOffset, device.path(),
                                             code, again));
    };
    auto journalFailed = [&](int code) {
        return stopped(MoveOutcome::Status::IoError, journalUnwritable(journalPath, code, again));
    };

    // Sources are read (and checksummed) ahead on another thread, into a ring of three buffers:
    // chunk i being written, chunk i+1 being journaled, chunk i+2 being read. That is safe: in
    // plan order, a chunk's destination never overlaps the source of a chunk after it.
    AlignedBuffer second = journal.makeRecordBuffer();
    AlignedBuffer third = journal.makeRecordBuffer();
    if (second.isNull() || third.isNull())
        return stopped(MoveOutcome::Status::Cancelled,
                       noMemoryToContinue(plan.largestChunk, again));
    AlignedBuffer *const buffers[3] = {&buffer, &second, &third};
    auto readAhead = [&device, &plan, &buffers](std::size_t index) {
        return std::async(std::launch::async, [&device, &plan, &buffers, index] {
            const MoveChunk &chunk = plan.chunks[index];
            unsigned char *data = MoveJournal::dataOf(*buffers[index % 3]);
            SourceRead read;
            read.error = device.readAt(data, chunk.length, chunk.sourceOffset);
            if (read.error == 0)
                read.checksum = checksum64(data, chunk.length);
            return read;
        });
    };
    std::future<SourceRead> ahead;
    if (firstChunk < count)
        ahead = readAhead(firstChunk);
    const ReadAheadGuard<SourceRead> drain(ahead);
    // The read of chunk `index`, which is the one `ahead` holds; starts the next one.
    auto take = [&](std::size_t index) {
        const SourceRead read = ahead.get();
        if (index + 1 < count)
            ahead = readAhead(index + 1);
        return read;
    };

    // Group commit. A resume starts again at the newest durable record R, re-reading the sources
    // of the chunks from R on, so those sources must stay intact until the next record: a chunk
    // is written without a new record only when its destination misses every source from R on
    // (kept as one enclosing interval, which can only call for extra records). A chunk that
    // overlaps its own source always gets a record carrying that source. Before a record, the
    // device is synced, as the record declares every chunk before it done.
    // On resume the chunk before `firstChunk` was replayed and synced, but its record is R.
    const std::size_t recorded = firstChunk > 0 ? firstChunk - 1 : 0;
    std::uint64_t pendingLow = UINT64_MAX;
    std::uint64_t pendingHigh = 0;
    auto addPending = [&](const MoveChunk &chunk) {
        pendingLow = std::min(pendingLow, chunk.sourceOffset);
        pendingHigh = std::max(pendingHigh, chunk.sourceOffset + chunk.length);
    };
    auto clearPending = [&] {
        pendingLow = UINT64_MAX;
        pendingHigh = 0;
    };
    for (std::size_t j = recorded; j < firstChunk; ++j)
        addPending(plan.chunks[j]);
    std::uint64_t unrecordedBytes = 0;
    bool unsynced = false;             // device writes since the last device sync
    std::size_t lastRecord = SIZE_MAX; // sequence of the newest record written here
    bool haveRead = false;             // `nextRead` holds chunk i's source already
    SourceRead nextRead;

    for (std::size_t i = firstChunk; i < count; ++i) {
        if (cancelled())
            return stopped(MoveOutcome::Status::Cancelled,
                           pausedPartWay(done, plan.bytesToCopy, again));
        const MoveChunk &chunk = plan.chunks[i];
        AlignedBuffer &current = *buffers[i % 3];
        const SourceRead read = haveRead ? nextRead : take(i);
        if (read.error != 0)
            return readFailed(chunk, read.error);
        const bool nextJournaled = i + 1 < count && plan.chunks[i + 1].needsJournal;

        int code = 0;
        if (lastRecord != i) {
            const bool overlapsPending = chunk.destinationOffset < pendingHigh &&
                                         pendingLow < chunk.destinationOffset + chunk.length;
            const bool needRecord = chunk.needsJournal || overlapsPending || i == 0 ||
                                    nextJournaled || unrecordedBytes >= kMaxUnrecordedBytes;
            if (needRecord) {
                // Every chunk written since the last record must be durable before a record
                // says so; then the record (holding this chunk's source, if it overlaps it) must
                // be durable before the destination is touched.
                if (unsynced && (code = device.sync()) != 0)
                    return writeFailed(plan.chunks[i - 1], code);
                unsynced = false;
                code = journal.writeRecord(i, read.checksum, current,
                                           chunk.needsJournal ? chunk.length : 0);
                if (code != 0)
                    return journalFailed(code);
                lastRecord = i;
                clearPending();
                unrecordedBytes = 0;
            } else if ((code = journal.setChunkChecksum(i, read.checksum)) != 0) {
                return journalFailed(code);
            }
        }
        addPending(chunk);
        unrecordedBytes += chunk.length;
        haveRead = false;

        if (nextJournaled && lastRecord == i) {
            // Pipelined: while this chunk is written and synced, the next chunk's source goes
            // into the journal (its record says this chunk may be under way). The next chunk's
            // destination is written only once both are durable.
            const unsigned char *data = MoveJournal::dataOf(current);
            auto written = std::async(std::launch::async, [&device, &chunk, data] {
                int result = writeOrPunch(device, data, chunk.length, chunk.destinationOffset);
                if (result == 0)
                    result = device.sync();
                return result;
            });
            const MoveChunk &next = plan.chunks[i + 1];
            nextRead = take(i + 1);
            int journalCode = 0;
            if (nextRead.error == 0)
                journalCode = journal.writeRecord(i + 1, nextRead.checksum, *buffers[(i + 1) % 3],
                                                  next.length, true);
            if ((code = written.get()) != 0)
                return writeFailed(chunk, code);
            if (behind)
                behind->written(i, read.checksum);
            if (nextRead.error != 0)
                return readFailed(next, nextRead.error);
            if (journalCode != 0)
                return journalFailed(journalCode);
            haveRead = true;
            lastRecord = i + 1;
            unsynced = false;
            clearPending();
            unrecordedBytes = 0;
        } else {
            code = writeOrPunch(device, MoveJournal::dataOf(current), chunk.length,
                                chunk.destinationOffset);
            if (code != 0)
                return writeFailed(chunk, code);
            if (behind)
                behind->written(i, read.checksum);
            unsynced = true;
        }
        done += chunk.length;
        m_bytesThisRun += chunk.length;
        report(MoveProgress::Phase::Copying, done, plan.bytesToCopy);
    }

    if (unsynced) {
        if (const int code = device.sync())
            return writeFailed(plan.chunks.back(), code);
    }
    // Every read has completed: verification needs the memory for its own buffers.
    second = AlignedBuffer();
    third = AlignedBuffer();
    return copied(device, journal, plan, buffer, behind);
}

MoveOutcome DataMover::copied(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                              AlignedBuffer &buffer, BackgroundVerifier *behind)
{
    if (const int code = journal.writeRecord(journal.copyFinishedSequence(), 0, buffer, 0))
        return stoppedPartWay(
            MoveOutcome::Status::IoError,
            QStringLiteral("Writing the move journal %1 failed: %2. The data is copied; run `%3` "
                           "to record it and verify.")
                .arg(journal.path(), errorText(code), resumeCommand(journal.path(), device.path())),
            journal.path());
    return verify(device, journal, plan, buffer, behind);
}

MoveOutcome DataMover::stoppedPartWay(MoveOutcome::Status status, const QString &message,
                                      const QString &journalPath) const
{
    MoveOutcome result = outcome(status, message, journalPath);
    result.bytesCopied = m_bytesThisRun;
    result.seconds = static_cast<double>(nowNanoseconds() - m_startNanoseconds) / 1e9;
    return result;
}

MoveOutcome DataMover::verify(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                              AlignedBuffer &buffer, BackgroundVerifier *behind)
{
    const QString &journalPath = journal.path();
    if (journal.request().verify) {
        VerifyFailure failure = behind ? behind->finish() : VerifyFailure();
        if (behind)
            m_bytesThisRun += behind->coveredBytes();
        if (!failure && (!behind || behind->covered() < plan.chunks.size()))
            failure = readBackAll(device, journal, plan);
        else if (!failure)
            report(MoveProgress::Phase::Verifying, plan.bytesToCopy, plan.bytesToCopy);
        if (failure)
            return verifyFailed(failure, device, journalPath);
    }
    if (const int code = journal.writeRecord(journal.verifiedSequence(), 0, buffer, 0))
        return outcome(
            MoveOutcome::Status::IoError,
            QStringLiteral("Writing the move journal %1 failed: %2. The data is "
                           "moved; run `%3` to record it.")
                .arg(journalPath, errorText(code), resumeCommand(journalPath, device.path())),
            journalPath);
    return finish(journal);
}

VerifyFailure DataMover::readBackAll(BlockIo &device, MoveJournal &journal, const MovePlan &plan)
{
    // Read the destination back in ascending order, in large reads that span several chunks
    // when they are contiguous, with the next read under way while the previous one is
    // checksummed: about the cost of one sequential read of the moved data.
    const std::uint64_t spanLimit = std::max(plan.largestChunk, kVerifySpanBytes);
    const VerifyOrder order = verifyOrder(plan, spanLimit);
    const std::vector<VerifySpan> &spans = order.spans;
    AlignedBuffer first = AlignedBuffer::forReading(spanLimit);
    AlignedBuffer second = AlignedBuffer::forReading(spanLimit);
    if (first.isNull() || second.isNull())
        return {VerifyFailure::Kind::Cancelled, ENOMEM, 0, spanLimit};
    AlignedBuffer *const buffers[2] = {&first, &second};
    auto readSpan = [&device, &spans, &buffers](std::size_t index) {
        return std::async(std::launch::async, [&device, &spans, &buffers, index] {
            const VerifySpan &span = spans[index];
            return device.readAt(buffers[index % 2]->data(), span.length, span.offset);
        });
    };
    std::future<int> ahead = readSpan(0);
    const ReadAheadGuard<int> drain(ahead);

    std::uint64_t done = 0;
    for (std::size_t s = 0; s < spans.size(); ++s) {
        const VerifySpan &span = spans[s];
        if (const int code = ahead.get())
            return {VerifyFailure::Kind::Unreadable, code, span.offset, span.length};
        if (cancelled())
            return {VerifyFailure::Kind::Cancelled, 0, span.offset, span.length};
        if (s + 1 < spans.size())
            ahead = readSpan(s + 1);
        const unsigned char *data = buffers[s % 2]->data();
        for (std::size_t k = span.first; k < span.first + span.count; ++k) {
            const std::size_t index = order.chunks[k];
            const MoveChunk &chunk = plan.chunks[index];
            if (checksum64(data, chunk.length) != journal.chunkChecksum(index))
                return {VerifyFailure::Kind::Mismatch, 0, chunk.destinationOffset, chunk.length};
            data += chunk.length;
        }
        done += span.length;
        m_bytesThisRun += span.length;
        report(MoveProgress::Phase::Verifying, done, plan.bytesToCopy);
    }
    return {};
}

MoveOutcome DataMover::verifyFailed(const VerifyFailure &failure, const BlockIo &device,
                                    const QString &journalPath) const
{
    const QString again = resumeCommand(journalPath, device.path());
    switch (failure.kind) {
    case VerifyFailure::Kind::Unreadable:
        return outcome(MoveOutcome::Status::IoError,
                       QStringLiteral("Reading back %1 at byte %2 of %3 to verify it "
                                      "failed: %4. The data is moved; run `%5` to "
                                      "verify again once the disk is readable.")
                           .arg(formatSize(failure.length))
                           .arg(failure.offset)
                           .arg(device.path(), errorText(failure.error), again),
                       journalPath);
    case VerifyFailure::Kind::Mismatch:
        return outcome(MoveOutcome::Status::VerifyFailed,
                       QStringLiteral("Verification failed: the %1 written at byte "
                                      "%2 of %3 read back differently. The disk may "
                                      "be failing; copy what you can from it "
                                      "before writing anything else.")
                           .arg(formatSize(failure.length))
                           .arg(failure.offset)
                           .arg(device.path()),
                       journalPath);
    case VerifyFailure::Kind::Cancelled:
    case VerifyFailure::Kind::None:
        break;
    }
    if (failure.error == ENOMEM)
        return outcome(MoveOutcome::Status::Cancelled,
                       QStringLiteral("Not enough memory for a %1 buffer to verify the "
                                      "move. Run `%2` to verify it.")
                           .arg(formatSize(failure.length), again),
                       journalPath);
    return outcome(MoveOutcome::Status::Cancelled,
                   QStringLiteral("The data is moved but verification was "
                                  "stopped. Run `%1` to verify it.")
                       .arg(again),
                   journalPath);
}

MoveOutcome DataMover::finish(MoveJournal &journal)
{
    MoveOutcome result = outcome(
        MoveOutcome::Status::Completed,
        QStringLiteral("Moved %1 from byte %2 to byte %3 of %4%5.")
            .arg(formatSize(journal.request().length))
            .arg(journal.request().sourceOffset)
            .arg(journal.request().destinationOffset)
            .arg(journal.request().devicePath,
                 journal.request().verify ? QStringLiteral(" and verified it") : QString()));
    result.seconds = static_cast<double>(nowNanoseconds() - m_startNanoseconds) / 1e9;
    result.bytesCopied = m_bytesThisRun;
    if (m_keepJournal)
        result.journalPath = journal.path();
    else
        MoveJournal::remove(journal.path());
    return result;
}

MoveOutcome resumeMove(const QString &journalPath, const QString &devicePath,
                       DataMover::ProgressCallback progress)
{
    DataMover mover;
    mover.setProgressCallback(std::move(progress));
    return mover.resume(journalPath, devicePath);
}

} // namespace partwise::move
