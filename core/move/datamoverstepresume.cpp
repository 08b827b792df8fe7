// Resuming a move from a step record (plans not cut to the shift; see movejournal.h).
// The recorded chunk may be half written. If its source went into the journal, the source may be
// half overwritten too, so the journal's copy is written; otherwise the source is untouched and is
// simply copied again. No new record is written for this chunk: the current one must stay valid
// until the next chunk's record replaces it.
// A record written while the previous chunk was still being written (doneBefore below its
// sequence) leaves that chunk to finish as well. Its own record is in the other slot unless the
// slot was reused, which only happens once the chunk is durable. Without journaled data, the
// chunk's source may already be overwritten by the next chunk, which only started once this one
// was durable: so a destination that already matches the checksum is left alone. A record whose
// copy does not match (torn, or damaged) is treated the same way; when its chunk is then taken
// from the source, that copy is journaled again before the chunk is written, since the write
// may overwrite the source.
// Where each chunk comes from is decided, and checked against the record, before anything is
// written.

#include "datamover.h"

#include "alignedbuffer.h"
#include "checksum.h"
#include "movejournal.h"
#include "movemessages.h"
#include "moveplan.h"
#include "resumemessages.h"

#include <vector>

namespace partwise::move {

// A chunk to finish, and where its data is once prepared.
struct DataMover::Replay
{
    std::size_t index = 0;
    const AlignedBuffer *holder = nullptr; // the record buffer its data was read into
    std::uint64_t checksum = 0;
    bool write = true; // false: its destination already holds it
};

MoveOutcome DataMover::resumeStep(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                  AlignedBuffer &buffer, const MoveJournal::Record &record)
{
    const QString &journalPath = journal.path();
    const QString again = resumeCommand(journalPath, device.path());
    const std::size_t index = record.sequence;
    std::vector<Replay> replays(1);
    AlignedBuffer other;
    if (record.doneBefore < record.sequence) {
        other = journal.makeRecordBuffer();
        if (other.isNull())
            return outcome(MoveOutcome::Status::IoError,
                           noMemoryForResume(plan.largestChunk, again), journalPath);
        int code = 0;
        const MoveJournal::Record previous = journal.previousRecord(other, &code);
        if (code != 0)
            return outcome(MoveOutcome::Status::IoError,
                           journalUnreadable(journalPath, code, again), journalPath);
        if (previous.valid && previous.sequence + 1 == record.sequence) {
            const MoveOutcome result =
                prepareReplay(device, journal, plan, index - 1, previous, other, true, &replays[0]);
            if (!result.ok())
                return result;
            replays.emplace_back();
        }
    }
    if (const MoveOutcome result =
            prepareReplay(device, journal, plan, index, record, buffer, false, &replays.back());
        !result.ok())
        return result;
    for (const Replay &replay : replays) {
        if (replay.index == index && record.dataLost && replay.write) {
            // The chunk was taken from its source, which its own write may overwrite: that copy
            // goes into the journal (durably) first, as the first run would have done.
            if (const int code = journal.rewriteLatestRecord(record, buffer))
                return outcome(MoveOutcome::Status::IoError,
                               journalUnwritable(journalPath, code, again), journalPath);
        }
        if (const MoveOutcome result = applyReplay(device, journal, plan, replay); !result.ok())
            return result;
    }
    return execute(device, journal, plan, buffer, index + 1);
}

// The record's copy when it holds; else the destination, if `skipIfDone` or the copy is lost
// and it matches the record's checksum; else the source, if it matches. Otherwise refused.
MoveOutcome DataMover::prepareReplay(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                     std::size_t index, const MoveJournal::Record &from,
                                     const AlignedBuffer &holder, bool skipIfDone, Replay *replay)
{
    const QString &journalPath = journal.path();
    const MoveChunk &chunk = plan.chunks[index];
    unsigned char *data = MoveJournal::dataOf(holder);
    *replay = Replay{index, &holder, from.chunkChecksum, true};
    if (from.hasData && !from.dataLost)
        return outcome(MoveOutcome::Status::Completed, QString());
    auto readFailed = [&](std::uint64_t offset, int code) {
        return outcome(MoveOutcome::Status::IoError,
                       sourceUnreadable(chunk.length, offset, device.path(), code,
                                        resumeCommand(journalPath, device.path())),
                       journalPath);
    };
    int code = 0;
    if (skipIfDone || from.dataLost) {
        if ((code = device.readAt(data, chunk.length, chunk.destinationOffset)) != 0)
            return readFailed(chunk.destinationOffset, code);
        if (checksum64(data, chunk.length) == from.chunkChecksum) {
            replay->write = false;
            return outcome(MoveOutcome::Status::Completed, QString());
        }
    }
    if ((code = device.readAt(data, chunk.length, chunk.sourceOffset)) != 0)
        return readFailed(chunk.sourceOffset, code);
    if (checksum64(data, chunk.length) == from.chunkChecksum)
        return outcome(MoveOutcome::Status::Completed, QString());
    if (from.dataLost)
        return outcome(MoveOutcome::Status::Refused,
                       journal.damageMessage(
                           QStringLiteral("its copy of the %1 at byte %2 is damaged, and neither "
                                          "that data's source nor its destination holds it")
                               .arg(formatSize(chunk.length))
                               .arg(chunk.sourceOffset)),
                       journalPath);
    return outcome(MoveOutcome::Status::Refused, neitherHolds(chunk, device.path(), journalPath),
                   journalPath);
}

MoveOutcome DataMover::applyReplay(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                   const Replay &replay)
{
    const QString &journalPath = journal.path();
    const QString again = resumeCommand(journalPath, device.path());
    const MoveChunk &chunk = plan.chunks[replay.index];
    int code = 0;
    // A destination found finished may still be in the page cache after a kill.
    if ((replay.write && (code = writeOrPunch(device, MoveJournal::dataOf(*replay.holder),
                                              chunk.length, chunk.destinationOffset)) != 0) ||
        (code = device.sync()) != 0)
        return outcome(MoveOutcome::Status::IoError,
                       destinationUnwritable(chunk.length, chunk.destinationOffset, device.path(),
                                             code, again),
                       journalPath);
    if ((code = journal.storeChunkChecksum(replay.index, replay.checksum)) != 0)
        return outcome(MoveOutcome::Status::IoError, journalUnwritable(journalPath, code, again),
                       journalPath);
    return outcome(MoveOutcome::Status::Completed, QString());
}

} // namespace partwise::move
