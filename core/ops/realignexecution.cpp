#include "ops/realignexecution.h"

#include "device/exclusiveclaim.h"
#include "fs/filesystemformatter.h"
#include "fs/filesystemresize.h"
#include "fs/filesystemsize.h"
#include "fs/filesystemtools.h"
#include "fs/journaledresize.h"
#include "fs/sessionabilities.h"
#include "fs/usedblocks.h"
#include "move/datamover.h"
#include "move/movejournal.h"
#include "ops/journaledfixups.h"
#include "ops/journaledtablecommit.h"
#include "ops/keptlayout.h"
#include "ops/partitionaccess.h"
#include "ops/physicalvolumestep.h"
#include "ops/realigndiscard.h"
#include "ops/tableeditor.h"
#include "table/diskreader.h"
#include "table/foreigndisk.h"

#include <QFile>

namespace partwise {

using move::DataMover;
using move::MoveOutcome;
using move::MoveProgress;
using move::MoveRequest;

namespace {

class RealignExecution
{
public:
    RealignExecution(WriteJournal &journal, const QString &journalPath,
                     const RealignCallbacks &callbacks, const PlannedMaps *planned)
        : m_journal(journal), m_path(journalPath), m_callbacks(callbacks), m_planned(planned),
          m_kept(planned ? planned->disk : nullptr, journal.target, journal.sectorSize,
                 DataMover::resumeCommand(journalPath, journal.target))
    {
    }

    RealignResult run()
    {
        RealignResult result;
        result.journalPath = m_path;
        // Every filesystem shrinks before any data moves: a shrink that fails then leaves each
        // partition where it was, its data in place.
        for (int i = 0; i < m_journal.moves.size(); ++i) {
            if (m_journal.phases[i] != Phase::Pending)
                continue;
            m_index = i;
            QString error;
            bool resumable = true;
            if (!step(i, &error, &resumable) || !settle(&error))
                return shrinkFailed(error);
        }
        for (int i = m_journal.nextUnfinished(); i >= 0; i = m_journal.nextUnfinished()) {
            m_index = i;
            m_check.clear();
            QString error;
            bool resumable = true;
            if (!step(i, &error, &resumable) || !settle(&error)) {
                result.error = error;
                result.resumable = resumable;
                return result;
            }
            if (!m_check.isEmpty())
                result.checks << m_check;
        }
        result.ok = true;
        return result;
    }

private:
    using Phase = WriteJournal::Phase;

    // Shrinks come before any move, so no partition has moved yet. When no filesystem was
    // shrunk either, the disk is as it was and the journal has nothing to finish.
    RealignResult shrinkFailed(const QString &error)
    {
        RealignResult result;
        result.journalPath = m_path;
        if (m_journal.phases.count(Phase::Pending) == m_journal.phases.size() &&
            !QFile::exists(redo(m_index).path)) {
            result.error = error;
            result.shrinkRefused = m_journal.moves[m_index].number;
            return result;
        }
        result.resumable = true;
        result.error = error + QStringLiteral(" No partition has moved. Fix that and run "
                                              "`partwise-cli resume --journal %1 %2` to retry, "
                                              "or delete %1 to leave every partition where it is.")
                                   .arg(m_path, m_journal.target);
        return result;
    }

    void log(const QString &line)
    {
        if (m_callbacks.log)
            m_callbacks.log(line);
    }

    bool advance(int i, Phase phase, QString *error)
    {
        m_journal.phases[i] = phase;
        return m_journal.save(m_path, error);
    }

    qint64 ss() const { return m_journal.sectorSize; }

    RedoJournal redo(int i) const { return moveStepRedo(m_journal, m_path, i, m_callbacks.log); }

    // The disk claimed for this job alone around its own writes (device/exclusiveclaim.h): a
    // partition mounted since the busy check stops the job before it writes, resumably.
    bool claimDisk(ExclusiveClaim *claim, int number, QString *error, bool forTable = false)
    {
        QString why;
        if (m_kept.claim(claim, forTable, &why))
            return true;
        *error = QStringLiteral("Partition %1: %2. Nothing more was written; once it is free "
                                "again, run `%3` to finish.")
                     .arg(number)
                     .arg(why, DataMover::resumeCommand(m_path, m_journal.target));
        return false;
    }

    // Read whole once per run, then only verified (ops/keptlayout.h).
    bool readLayout(DiskLayout *layout, QString *error) { return m_kept.read(layout, error); }
    bool settle(QString *error) { return m_kept.settle(error); }
    bool adoptWrittenTable(const TableEditor &editor, QString *error)
    {
        return m_kept.adoptWrittenTable(editor.layout(), error);
    }

    FilesystemLocation location(qint64 startSector, const DiskLayout &layout, int number) const
    {
        return partitionLocation(layout, startSector, number);
    }

    bool step(int i, QString *error, bool *resumable)
    {
        const PartitionMove &m = m_journal.moves[i];
        switch (m_journal.phases[i]) {
        case Phase::Pending:
            if (m.shrinkSectors > 0 && !shrink(m, error))
                return false;
            // The record goes only once the journal says the shrink is done.
            if (!advance(i, Phase::Shrunk, error))
                return false;
            finishJournaledResize(redo(i));
            return true;
        case Phase::Shrunk:
            log(QStringLiteral("Partition %1: %2–%3 → %4–%5")
                    .arg(m.number)
                    .arg(m.oldStart)
                    .arg(m.oldEnd)
                    .arg(m.newStart)
                    .arg(m.newEnd));
            if (m.tableOnly()) {
                // An extended partition holds no data: only its place in the table changes.
                if (!updateTable(m, error))
                    return false;
                return advance(i, Phase::Done, error);
            }
            if (m.newStart == m.oldStart) {
                // Resized in place: the data stays where it is.
                if (!updateTable(m, error))
                    return false;
                return advance(i, Phase::TableUpdated, error);
            }
            if (m.kind == PartitionInfo::Kind::Logical && !placeEbrs(m, error))
                return false;
            if (!advance(i, Phase::Moving, error))
                return false;
            [[fallthrough]];
        case Phase::Moving:
            if (!move(m, error, resumable))
                return false;
            if (!advance(i, Phase::Moved, error))
                return false;
            [[fallthrough]];
        case Phase::Moved:
            // The copy is recorded as done, so its data journal has served. It must go before
            // the next partition starts: a kill that left it behind would make that partition's
            // move "resume" this finished copy and copy nothing.
            move::MoveJournal::remove(m_journal.dataJournalPath(m_path));
            if (!updateTable(m, error))
                return false;
            return advance(i, Phase::TableUpdated, error);
        case Phase::TableUpdated:
            if (!finishFilesystem(m, error)) {
                // Resume redoes this step (and the check) before it goes on.
                *error += QStringLiteral(" Repair the filesystem with its own tool, then run "
                                         "`partwise-cli resume --journal %1 %2` to continue.")
                              .arg(m_path, m_journal.target);
                return false;
            }
            if (!advance(i, Phase::Done, error))
                return false;
            finishJournaledResize(redo(i));
            return true;
        case Phase::Done:
            return true;
        }
        return false;
    }

    bool shrink(const PartitionMove &m, QString *error)
    {
        DiskLayout layout;
        if (!readLayout(&layout, error))
            return false;
        // The planner never shrinks unknown contents; a journal of an older plan may.
        if (m.filesystem.isEmpty()) {
            *error = QStringLiteral("Partition %1 holds no filesystem Partwise recognises, so it "
                                    "is never shrunk: its data may reach its last sector. Nothing "
                                    "was moved.")
                         .arg(m.number);
            return false;
        }
        const FilesystemLocation where = location(m.oldStart, layout, m.number);
        const qint64 newBytes = m.newLength() * ss();
        // Every shrink runs before the first move's "Partition N: …" heading: it names its own.
        log(QStringLiteral("Partition %1: shrinking the %2 filesystem by %3 sectors to fit")
                .arg(m.number)
                .arg(m.filesystem)
                .arg(m.shrinkSectors));
        m_wrote = true;
        const ToolResult r = resizeContents(m, where, m.oldLength() * ss(), newBytes);
        if (!r.ok)
            *error = QStringLiteral("Shrinking partition %1 failed, so nothing was moved: %2")
                         .arg(m.number)
                         .arg(r.error);
        return r.ok;
    }

    // libparted writes each EBR in the sector after the previous logical partition, wherever
    // an older tool had put it. Moving a logical partition's data up would overwrite the next
    // partition's EBR right after its old end (losing that partition and every one after it),
    // and moving it down may overwrite its own EBR in the gap before it. So, before the data
    // moves, the table is written once: with the partition already at its new place when it
    // moves up (the next EBR then lands after its new end), unchanged when it moves down (its
    // EBR lands after the previous partition, below the new start). The planner keeps a sector
    // free before every logical partition for this. Idempotent, so resume simply redoes it.
    bool placeEbrs(const PartitionMove &m, QString *error)
    {
        DiskLayout layout;
        if (!readLayout(&layout, error))
            return false;
        ExclusiveClaim claim;
        if (!claimDisk(&claim, m.number, error, true))
            return false;
        m_wrote = true;
        const RedoJournal tableRecord = tableRedo(m_path, m_journal.nextOperation, m_callbacks.log);
        TableEditor editor;
        if (!editor.open(layout, error) ||
            (m.newStart > m.oldStart &&
             !editor.setGeometry(m.number, m.newStart, m.newEnd, error)) ||
            !editor.commit(error, &tableRecord)) {
            *error = QStringLiteral("Could not prepare the extended partition's boot records for "
                                    "moving partition %1, so nothing was moved: %2")
                         .arg(m.number)
                         .arg(*error);
            return false;
        }
        return adoptWrittenTable(editor, error);
    }

    // The map the plan read of the partition at its old place, cut to the `length` the move
    // copies: only before this run has written anything (the hold's counts would then count
    // its own writes) and while the disk is unchanged since the plan (device/sourcehold.h).
    // A map of the whole partition holds the same used blocks, and past the filesystem's end
    // only what the map adds to the end, which the cut removes.
    std::optional<std::vector<move::Extent>> plannedMap(const PartitionMove &m, qint64 length)
    {
        if (!m_planned || !m_planned->hold || m_wrote)
            return std::nullopt;
        const auto map = m_planned->maps.constFind(m.number);
        if (map == m_planned->maps.constEnd() || map->offsetBytes != m.oldStart * ss() ||
            map->lengthBytes < length || !m_planned->hold->unchanged())
            return std::nullopt;
        std::vector<move::Extent> cut;
        const std::uint64_t end = std::uint64_t(length);
        for (const move::Extent &e : map->extents)
            if (e.offset < end)
                cut.push_back({e.offset, std::min(e.length, end - e.offset)});
        log(QStringLiteral("  the map of the blocks in use read for the plan (the disk is "
                           "unchanged since)"));
        return cut;
    }

    bool move(const PartitionMove &m, QString *error, bool *resumable)
    {
        if (m.recreateSwap) {
            log(QStringLiteral("  swap: nothing to copy; it is recreated at the new place"));
            return true;
        }
        const QString dataJournal = m_journal.dataJournalPath(m_path);
        DataMover mover;
        mover.setBlockIoOpener(m_kept.blockIoOpener());
        mover.setKeepJournal(true); // removed only once the journal records the move as done
        mover.setCancelFlag(m_callbacks.cancel);
        mover.setNoteCallback([this](const QString &note) { log(QStringLiteral("  ") + note); });
        mover.setProgressCallback([this, &m](const MoveProgress &p) {
            if (!m_callbacks.progress)
                return;
            RealignProgress rp;
            rp.moveIndex = m_index;
            rp.moveCount = m_journal.moves.size();
            rp.partition = m.number;
            const bool verifying = p.phase == MoveProgress::Phase::Verifying;
            rp.stepKind =
                verifying ? RealignProgress::Step::Verifying : RealignProgress::Step::Moving;
            rp.step = verifying ? QStringLiteral("verifying") : QStringLiteral("moving");
            rp.bytesDone = p.bytesDone;
            rp.bytesTotal = p.bytesTotal;
            rp.bytesPerSecond = p.bytesPerSecond;
            rp.secondsLeft = p.secondsLeft;
            m_callbacks.progress(rp);
        });
        MoveOutcome outcome;
        ExclusiveClaim claim; // from before the first write of the copy to its verification
        if (QFile::exists(dataJournal)) {
            log(QStringLiteral("  resuming the interrupted copy"));
            if (!claimDisk(&claim, m.number, error))
                return false;
            outcome = mover.resume(dataJournal, m_journal.target);
        } else {
            DiskLayout layout;
            if (!readLayout(&layout, error))
                return false;
            MoveRequest request;
            request.devicePath = m_journal.target;
            request.sourceOffset = quint64(m.oldStart * ss());
            request.destinationOffset = quint64(m.newStart * ss());
            qint64 length = std::min(m.oldLength(), m.newLength()) * ss();
            // On a block device the tools read the partition node, which shows the source only
            // while the table still has the partition there (placeEbrs() may have moved it).
            const PartitionInfo *now = layout.partitionByNumber(m.number);
            const bool nodeOnSource =
                layout.device.isImage || (now && now->startSector == m.oldStart);
            if (const auto fsBytes =
                    nodeOnSource
                        ? filesystemSizeBytes(location(m.oldStart, layout, m.number), m.filesystem)
                        : std::nullopt)
                length = std::min(length, (*fsBytes + ss() - 1) / ss() * ss());
            request.length = quint64(length);
            request.verify = m_journal.verify;
            // Free blocks hold nothing worth copying: a mostly empty filesystem moves in
            // proportion to its data. Unknown maps (other types, unclean ext) copy everything.
            QString mapError;
            std::optional<std::vector<move::Extent>> used = plannedMap(m, length);
            if (!used)
                used = usedExtents(m_journal.target, m.oldStart * ss(), length, m.filesystem,
                                   &mapError);
            if (used) {
                request.extents = std::move(*used);
                log(QStringLiteral("  moving the %1 bytes in use of %2")
                        .arg(extentBytes(request.extents))
                        .arg(length));
            } else {
                if (!mapError.isEmpty())
                    log(QStringLiteral("  copying every byte: %1").arg(mapError));
                log(QStringLiteral("  moving %1 bytes").arg(length));
            }
            if (!claimDisk(&claim, m.number, error))
                return false;
            m_wrote = true;
            outcome = mover.run(request, dataJournal);
        }
        if (!outcome.ok()) {
            // A refused resume (a damaged data journal) wrote nothing and cannot be retried.
            const bool refused = outcome.status == MoveOutcome::Status::Refused;
            *resumable = !refused && (outcome.resumable() || QFile::exists(dataJournal));
            // The mover names its own journal; the person resumes the whole realignment.
            const QString ours = DataMover::resumeCommand(m_path, m_journal.target);
            QString message = outcome.message;
            message.replace(DataMover::resumeCommand(dataJournal, m_journal.target), ours);
            *error = QStringLiteral("Partition %1: %2").arg(m.number).arg(message);
            if (*resumable && !message.contains(ours))
                *error += QStringLiteral(" Run `%1` to finish.").arg(ours);
            return false;
        }
        // bytesCopied counts every write, journal copies included: report time only.
        log(QStringLiteral("  moved in %1 s").arg(outcome.seconds, 0, 'f', 1));
        return settle(error); // a logical partition's data may cover its old EBR's stretch
    }

    bool updateTable(const PartitionMove &m, QString *error)
    {
        DiskLayout layout;
        if (!readLayout(&layout, error))
            return false;
        ExclusiveClaim claim;
        if (!claimDisk(&claim, m.number, error, true))
            return false;
        m_wrote = true;
        const RedoJournal tableRecord = tableRedo(m_path, m_journal.nextOperation, m_callbacks.log);
        TableEditor editor;
        if (!editor.open(layout, error) ||
            !editor.setGeometry(m.number, m.newStart, m.newEnd, error) ||
            !editor.commit(error, &tableRecord)) {
            *error = QStringLiteral(
                         "The data of partition %1 is at its new place but the table could not be "
                         "updated: %2 Run `partwise-cli resume --journal %3 %4` to retry.")
                         .arg(m.number)
                         .arg(*error, m_path, m_journal.target);
            return false;
        }
        log(QStringLiteral("  table updated"));
        return adoptWrittenTable(editor, error);
    }

    bool finishFilesystem(const PartitionMove &m, QString *error)
    {
        m_check.clear();
        m_wrote = true;
        DiskLayout layout;
        if (!readLayout(&layout, error))
            return false;
        const FilesystemLocation where = location(m.newStart, layout, m.number);
        if (m.recreateSwap) {
            FormatRequest req;
            req.filesystem = QStringLiteral("swap");
            req.label = m.label;
            req.uuid = m.uuid;
            req.targetIsImage = where.isImage;
            req.target = where.isImage ? m_journal.target : where.path;
            req.offsetBytes = m.newStart * ss();
            req.sizeBytes = m.newLength() * ss();
            req.logicalSectorSize = ss();
            const ToolResult r = formatFilesystem(req);
            if (!r.ok) {
                *error = QStringLiteral("Recreating swap on partition %1 failed: %2")
                             .arg(m.number)
                             .arg(r.error);
                return false;
            }
            m_check = QStringLiteral("partition %1 (swap): recreated with UUID %2")
                          .arg(m.number)
                          .arg(m.uuid);
            log(QStringLiteral("  ") + m_check);
            return true;
        }
        {
            // Boot sector and boot loader written with the disk claimed, as its data was.
            ExclusiveClaim claim;
            const FilesystemLocation at{where.isImage ? m_journal.target : where.path, where.offset,
                                        where.isImage};
            if (!claimDisk(&claim, m.number, error) ||
                !updateHiddenSectorsJournaled(at, m.newLength() * ss(), m.filesystem, m.newStart,
                                              fixupRedo(redo(m_index)), error))
                return false;
            fixBoot(m);
        }
        if (m.filesystem.isEmpty())
            return true;
        if (m.grow && !grow(m, where, error))
            return false;
        if (const QString why = noCheckReason(m.filesystem); !why.isEmpty()) {
            m_check = QStringLiteral("partition %1 (%2): not checked: %3 (accepted)")
                          .arg(m.number)
                          .arg(m.filesystem, why);
            log(QStringLiteral("  ") + m_check);
            return true;
        }
        const ToolResult r = checkPartitionReadOnly(where, m.newLength() * ss(), m.filesystem);
        if (!r.ok && r.exitCode == -1 && where.isImage) {
            m_check = QStringLiteral("partition %1 (%2): not checked: %3")
                          .arg(m.number)
                          .arg(m.filesystem, r.error);
            log(QStringLiteral("  ") + m_check);
            return true;
        }
        m_check = QStringLiteral("partition %1 (%2): %3")
                      .arg(m.number)
                      .arg(m.filesystem, r.ok ? QStringLiteral("clean") : r.error);
        log(QStringLiteral("  check: ") + m_check);
        if (!r.ok)
            *error = QStringLiteral(
                         "Partition %1 was moved, but its read-only check reports problems: %2")
                         .arg(m.number)
                         .arg(r.error);
        return r.ok;
    }

    // Boot loaders that follow the moved sectors (boot/bootfixups.h). What cannot be fixed was
    // named in the plan; the data has moved, so it is reported, not a reason to stop.
    void fixBoot(const PartitionMove &m)
    {
        if (m.newStart == m.oldStart)
            return;
        const BootFixResult boot = fixBootAfterMoveJournaled(
            m_journal.target, ss(), m.number, m.oldStart, m.newStart,
            std::min(m.oldLength(), m.newLength()), fixupRedo(redo(m_index)));
        for (const QString &line : boot.done)
            log(QStringLiteral("  boot: ") + line);
        if (!boot.ok)
            log(QStringLiteral("  boot loader NOT fixed: ") + boot.error);
    }

    ToolResult resizeContents(const PartitionMove &m, const FilesystemLocation &where,
                              qint64 partitionBytes, qint64 newBytes)
    {
        return resizePartitionContents(where, m.number, m.filesystem, partitionBytes, newBytes,
                                       redo(m_index));
    }

    // Growing again to the same size changes nothing, so resume may simply redo it.
    bool grow(const PartitionMove &m, const FilesystemLocation &where, QString *error)
    {
        const FilesystemPlace place =
            where.isImage ? FilesystemPlace::Image : FilesystemPlace::Disk;
        if (const AbilityHere ability =
                filesystemAbilityHere(m.filesystem, FilesystemAction::Grow, place);
            !ability.can) {
            log(QStringLiteral("  the %1 filesystem keeps its size: %2")
                    .arg(m.filesystem, ability.why));
            return true;
        }
        const ToolResult r = resizeContents(m, where, m.newLength() * ss(), m.newLength() * ss());
        log(QStringLiteral("  $ %1").arg(r.command));
        if (!r.ok)
            *error = QStringLiteral("Growing the %1 filesystem of partition %2 failed: %3")
                         .arg(m.filesystem)
                         .arg(m.number)
                         .arg(r.error);
        return r.ok;
    }

    WriteJournal &m_journal;
    QString m_path;
    const RealignCallbacks &m_callbacks;
    const PlannedMaps *m_planned = nullptr;
    bool m_wrote = false; // this run has written to the disk
    KeptLayout m_kept;
    int m_index = 0;
    QString m_check;
};

} // namespace

RedoJournal moveStepRedo(const WriteJournal &journal, const QString &journalPath, int move,
                         const std::function<void(const QString &)> &log)
{
    RedoJournal r;
    r.path = journalPath + QStringLiteral(".redo");
    r.tag = quint64(journal.nextOperation) << 32 | quint64(move + 1) << 8 |
            quint64(journal.phases[move]);
    r.log = log;
    return r;
}

RealignResult executeMoves(WriteJournal &journal, const QString &journalPath,
                           const RealignCallbacks &callbacks, const PlannedMaps *planned)
{
    return RealignExecution(journal, journalPath, callbacks, planned).run();
}

RealignResult runRealignmentJournal(WriteJournal &journal, const QString &path,
                                    const RealignCallbacks &callbacks, const PlannedMaps *planned)
{
    // A resume (no plan of this session) first reads the label libparted would abort on.
    if (const QString foreign =
            planned ? QString() : foreignLabelRefusal(journal.target, journal.sectorSize);
        !foreign.isEmpty()) {
        RealignResult refused;
        refused.error = foreign;
        refused.journalPath = path;
        return refused;
    }
    RealignResult result = executeMoves(journal, path, callbacks, planned);
    // Only once every move is journaled done; a kill during it discards again on resume.
    if (const QString discarded =
            result.ok ? discardLeftBehind(journal, callbacks.cancel) : QString();
        !discarded.isEmpty() && callbacks.log)
        callbacks.log(discarded);
    if (result.ok || result.shrinkRefused > 0) {
        WriteJournal::remove(path);
        if (result.ok && callbacks.log)
            callbacks.log(QStringLiteral("Realignment finished."));
        if (!result.ok) // a tool's last line may end without a full stop
            result.error =
                result.error.trimmed() +
                (result.error.trimmed().endsWith(QLatin1Char('.')) ? QString()
                                                                   : QStringLiteral(".")) +
                QStringLiteral(" Nothing was changed.");
    }
    return result;
}

} // namespace partwise
