#pragma once

#include "BlockIo.h"
#include "MoveProgress.h"
#include "MoveRequest.h"

#include <QString>

#include <atomic>
#include <functional>

namespace partwise::move {

class MoveJournal;
struct MovePlan;
class AlignedBuffer;

// Runs a journaled, crash-safe move of a byte range inside one device or image file, and
// finishes one that was interrupted. Blocking: call it from a worker thread. Per chunk the
// order is: journal record (with the chunk's source data when the destination overlaps it)
// written and synced, destination written, destination synced. So at any instant, a kill or
// a power cut included, either the source of the current chunk is intact or a complete copy
// of it is in the journal, and resume() can finish the move.
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
    MoveOutcome execute(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                        AlignedBuffer &buffer, std::size_t firstChunk);
    MoveOutcome verify(BlockIo &device, MoveJournal &journal, const MovePlan &plan,
                       AlignedBuffer &buffer);
    MoveOutcome finish(MoveJournal &journal);
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    void report(MoveProgress::Phase phase, std::uint64_t done, std::uint64_t total);

    ProgressCallback m_progress;
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
