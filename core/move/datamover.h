#pragma once

#include "backgroundverifier.h"
#include "blockio.h"
#include "movejournal.h"
#include "moveprogress.h"
#include "moverequest.h"

#include <QString>

#include <atomic>
#include <functional>

namespace partwise::move {

struct MovePlan;
class AlignedBuffer;
class BackgroundVerifier;

// Runs a journaled, crash-safe move of a byte range inside one device or image file, and
// finishes one that was interrupted. Blocking: call it from a worker thread. Before a chunk's
// destination is written, either a record holding the chunk's source (when the destination
// overlaps it) or its checksum (in a window record, for chunks cut to the shift) is durable in
// the journal, and so is every chunk whose source the write destroys. So at any instant, a kill
// or a power cut included, each unfinished chunk's data is intact at its source or in the
// journal, a finished one is recognised by its checksum, and resume() can finish the move.
class DataMover
{
public:
    using ProgressCallback = std::function<void(const MoveProgress &)>;

    DataMover();

    // Called after every chunk, on the mover's thread.
    void setProgressCallback(ProgressCallback callback) { m_progress = std::move(callback); }
    // Polled between chunks; when it becomes true the move stops at a resumable point.
    void setCancelFlag(const std::atomic<bool> *cancel) { m_cancel = cancel; }
    // Test seam: how the device and the journal are opened (default: openFileBlockIo).
    void setBlockIoOpener(BlockIoOpener opener) { m_opener = std::move(opener); }
    // Called on the mover's thread with a line for the log: how overlapping data is kept safe,
    // when the move begins and whenever the way is chosen or changes (overlapchooser.h).
    void setNoteCallback(std::function<void(const QString &)> note) { m_note = std::move(note); }
    // By default the journal is deleted once the move is complete and verified.
    void setKeepJournal(bool keep) { m_keepJournal = keep; }

    // Starts a move. `journalPath` must lie outside the moved range and not exist yet (see
    // MoveJournal::defaultPath).
    MoveOutcome run(const MoveRequest &request, const QString &journalPath);

    // Finishes the move recorded in `journalPath`. `devicePath` overrides the device named in
    // the journal (a loop device may come back under another name); the device must have the
    // size the journal recorded.
    MoveOutcome resume(const QString &journalPath, const QString &devicePath = QString());

    // The command a person runs to finish an interrupted move (for messages).
    static QString resumeCommand(const QString &journalPath, const QString &devicePath);

private:
    MoveOutcome copyFrom(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                         AlignedBuffer &buffer, std::size_t firstChunk);
    // Chunks that may overlap their own sources, with a step record per journaled chunk.
    MoveOutcome execute(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                        AlignedBuffer &buffer, std::size_t firstChunk,
                        BackgroundVerifier *behind = nullptr);
    // Plans cut to the shift (datamoverwindows.cpp): a window record per window of chunks, a sync
    // between chunks, and a resume that checks the window's destinations against the table.
    MoveOutcome copyInWindows(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                              AlignedBuffer &recordBuffer, std::size_t firstChunk, bool unsynced,
                              BackgroundVerifier *behind = nullptr);
    MoveOutcome resumeWindow(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                             AlignedBuffer &recordBuffer, const MoveJournal::Record &record);
    // A journaled window: written again from the record that holds its sources.
    MoveOutcome restoreWindow(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                              AlignedBuffer &recordBuffer, const MoveJournal::Record &record);
    // The other plans (datamoverstepresume.cpp): finishes the chunks the newest step record leaves
    // under way, deciding where each comes from before anything is written, then copies on.
    MoveOutcome resumeStep(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                           AlignedBuffer &buffer, const MoveJournal::Record &record);
    struct Replay;
    static MoveOutcome prepareReplay(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                     std::size_t index, const MoveJournal::Record &from,
                                     const AlignedBuffer &holder, bool skipIfDone, Replay *replay);
    static MoveOutcome applyReplay(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                                   const Replay &replay);
    // Records the copy as finished, then verifies.
    MoveOutcome copied(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                       AlignedBuffer &buffer, BackgroundVerifier *behind = nullptr);
    // Verifies what `behind` (if any) has not read back already, then records the move done.
    MoveOutcome verify(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                       AlignedBuffer &buffer, BackgroundVerifier *behind = nullptr);
    // The pass after the copy: every destination read back in ascending order.
    VerifyFailure readBackAll(BlockIo &device, MoveJournal &journal, const MovePlan &plan);
    MoveOutcome verifyFailed(const VerifyFailure &failure, const BlockIo &device,
                             const QString &journalPath) const;
    MoveOutcome finish(MoveJournal &journal);
    // An outcome for a move stopped part way, with this run's bytes and time.
    MoveOutcome stoppedPartWay(MoveOutcome::Status status, const QString &message,
                               const QString &journalPath) const;
    static MoveOutcome outcome(MoveOutcome::Status status, const QString &message,
                               const QString &journalPath = QString());
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    void report(MoveProgress::Phase phase, std::uint64_t done, std::uint64_t total);
    void note(const QString &line) const
    {
        if (m_note && !line.isEmpty())
            m_note(line);
    }

    ProgressCallback m_progress;
    std::function<void(const QString &)> m_note;
    const std::atomic<bool> *m_cancel = nullptr;
    BlockIoOpener m_opener;
    bool m_keepJournal = false;

    // Per run: for throughput, time left and messages.
    std::uint64_t m_bytesThisRun = 0;
    std::uint64_t m_startNanoseconds = 0;
};

// Convenience for the CLI and the GUI's start-up check: resume with default settings.
MoveOutcome resumeMove(const QString &journalPath, const QString &devicePath = QString(),
                       DataMover::ProgressCallback progress = {});

} // namespace partwise::move
