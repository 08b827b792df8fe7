#include "ops/applyrunner.h"

#include "device/automountinhibitor.h"
#include "device/diskidentity.h"
#include "device/diskwritelock.h"
#include "fs/filesystemresize.h"
#include "fs/filesystemsize.h"
#include "fs/sessionabilities.h"
#include "move/redorecord.h"
#include "ops/identityfollow.h"
#include "ops/operationboot.h"
#include "ops/operationexecution.h"
#include "ops/operationpreview.h"
#include "ops/partitionaccess.h"
#include "ops/pasteboot.h"
#include "ops/pasteexecution.h"
#include "ops/pastesource.h"
#include "ops/realignexecution.h"
#include "ops/tableeditor.h"
#include "ops/writepreflight.h"
#include "table/foreigndisk.h"

#include <QElapsedTimer>
#include <QScopeGuard>

#include <algorithm>

namespace partwise {

namespace {

QString summary(const DiskLayout &layout)
{
    QStringList rows;
    for (const PartitionInfo &p : layout.partitions())
        rows << QStringLiteral("#%1 %2–%3 %4")
                    .arg(p.number)
                    .arg(p.startSector)
                    .arg(p.endSector)
                    .arg(p.isContainer()          ? QStringLiteral("extended")
                         : p.filesystem.isEmpty() ? QStringLiteral("no filesystem")
                                                  : p.filesystem);
    return rows.isEmpty() ? QStringLiteral("no partitions") : rows.join(QStringLiteral("; "));
}

// Runs the journal's operations one by one. Before each starts, the journal records the table
// as it stands (and, for a Resize, the partition's move); after each, that it is done.
class ApplyJob
{
public:
    ApplyJob(WriteJournal &journal, const QString &path, const ApplyCallbacks &callbacks,
             ApplyResult &result)
        : m_journal(journal), m_path(path), m_callbacks(callbacks), m_result(result)
    {
        m_context.target = journal.target;
        m_context.forcedSectorSize = journal.sectorSize;
        m_context.policy = journal.policy;
        m_context.ask = callbacks.ask;
        m_context.log = [this](const QString &line) { log(line); };
        m_context.scratchFolder = path + QStringLiteral(".scratch");
        m_context.journalPath = path;
        m_result.journalPath = path;
        m_result.backupFolder = journal.backupFolder;
        m_result.completed = journal.nextOperation;
    }

    void log(const QString &line)
    {
        m_result.log << line;
        if (m_callbacks.log)
            m_callbacks.log(line);
    }

    bool run()
    {
        const QList<Operation> &ops = m_journal.operations;
        for (int i = m_journal.nextOperation; i < ops.size(); ++i) {
            if (m_callbacks.cancel && m_callbacks.cancel->load())
                return failed(i, QStringLiteral("Cancelled before it began."), true);
            log(QStringLiteral("[%1/%2] %3").arg(i + 1).arg(ops.size()).arg(ops[i].description()));
            QString error;
            bool resumable = false;
            const bool done =
                ops[i].type == Operation::Type::Resize  ? resize(ops[i], &error, &resumable)
                : ops[i].type == Operation::Type::Paste ? paste(ops[i], &error, &resumable)
                                                        : other(ops[i], &error);
            if (!done || !finished(i, &error))
                return failed(i, error, resumable);
            if (m_callbacks.progress)
                m_callbacks.progress(i + 1, ops.size());
        }
        WriteJournal::remove(m_path);
        m_result.ok = true;
        log(QStringLiteral("All %1 operations applied.").arg(ops.size()));
        return true;
    }

private:
    // The table as it stands before the operation: read, and written down the first time.
    bool readBefore(DiskLayout *now, QString *error)
    {
        if (!m_context.read(now, error))
            return false;
        if (m_journal.tableBefore.isEmpty()) {
            m_journal.tableBefore = tableSummary(*now);
            if (!m_journal.save(m_path, error))
                return false;
        }
        return true;
    }

    bool other(const Operation &op, QString *error)
    {
        m_context.operationIndex = m_journal.nextOperation;
        DiskLayout now;
        return readBefore(&now, error) &&
               executeOperation(m_context, op, now, m_journal.tableBefore, error);
    }

    bool paste(const Operation &op, QString *error, bool *resumable)
    {
        m_context.operationIndex = m_journal.nextOperation;
        QElapsedTimer clock;
        clock.start();
        m_context.copied = [this, &clock, &op](quint64 done, quint64 total) {
            if (!m_callbacks.bytes)
                return;
            RealignProgress p;
            p.partition = op.number;
            p.moveIndex = m_journal.nextOperation;
            p.moveCount = m_journal.operations.size();
            p.step = QStringLiteral("copying");
            p.bytesDone = done;
            p.bytesTotal = total;
            const double seconds = clock.elapsed() / 1000.0;
            p.bytesPerSecond = seconds > 0 ? done / seconds : 0;
            p.secondsLeft =
                p.bytesPerSecond > 0 ? (total - std::min(done, total)) / p.bytesPerSecond : 0;
            m_callbacks.bytes(p);
        };
        const auto forget = qScopeGuard([this] { m_context.copied = nullptr; });
        DiskLayout now;
        return readBefore(&now, error) && executePaste(m_context, op, now, m_journal.tableBefore,
                                                       m_callbacks.cancel, error, resumable);
    }

    // Resize (and move, when the start changes) runs the journaled steps of a realignment:
    // the filesystem shrinks before the partition does, the data moves, the table follows, the
    // filesystem grows into a larger partition and is checked.
    bool resize(const Operation &op, QString *error, bool *resumable)
    {
        if (m_journal.moves.isEmpty()) { // not started yet
            PartitionMove m;
            QString table;
            if (!planResize(op, &m, &table, error))
                return false;
            if (m.oldStart == m.newStart && m.oldEnd == m.newEnd)
                return true;
            m_journal.moves = {m};
            m_journal.phases = {WriteJournal::Phase::Pending};
            m_journal.tableBefore = table;
            if (!m_journal.save(m_path, error))
                return false;
        }
        RealignCallbacks callbacks;
        callbacks.log = [this](const QString &line) { log(line); };
        callbacks.cancel = m_callbacks.cancel;
        callbacks.progress = [this, number = op.number](RealignProgress p) {
            p.partition = number;
            p.moveIndex = m_journal.nextOperation;
            p.moveCount = m_journal.operations.size();
            if (m_callbacks.bytes)
                m_callbacks.bytes(p);
        };
        const RealignResult r = executeMoves(m_journal, m_path, callbacks);
        *error = r.error;
        *resumable = r.resumable;
        return r.ok;
    }

    bool planResize(const Operation &op, PartitionMove *m, QString *table, QString *error)
    {
        DiskLayout before;
        if (!m_context.read(&before, error))
            return false;
        *table = tableSummary(before);
        const PartitionInfo *old = before.partitionByNumber(op.number);
        if (!old) {
            *error = QStringLiteral("There is no partition %1.").arg(op.number);
            return false;
        }
        TableEditor editor(m_callbacks.ask);
        if (!editor.open(before, error) || !editor.apply(op, m_journal.policy, error))
            return false;
        // Kept: layout() returns a copy, and `now` points into it (ASan found it dangling).
        const DiskLayout after = editor.layout();
        const PartitionInfo *now = after.partitionByNumber(op.number);
        const qint64 ss = before.device.topology.logicalSectorSize;
        *m = PartitionMove{};
        m->number = op.number;
        m->kind = old->kind;
        m->filesystem = old->filesystem;
        m->label = old->label;
        m->uuid = old->uuid;
        m->oldStart = old->startSector;
        m->oldEnd = old->endSector;
        m->newStart = now->startSector;
        m->newEnd = now->endSector;
        const qint64 newBytes = m->newLength() * ss;
        const qint64 fsBytes =
            filesystemSizeBytes(partitionLocation(before, old->startSector, op.number),
                                old->filesystem)
                .value_or(m->oldLength() * ss);
        const bool swap = old->filesystem == QLatin1String("swap");
        const FilesystemPlace place =
            before.device.isImage ? FilesystemPlace::Image : FilesystemPlace::Disk;
        if (const QString why = whyCannotShrinkHere(old->filesystem, newBytes, place);
            newBytes < fsBytes && !swap && !why.isEmpty()) {
            *error = QStringLiteral("The %1 filesystem on partition %2 cannot be shrunk here: %3.")
                         .arg(old->filesystem)
                         .arg(op.number)
                         .arg(why);
            return false;
        }
        m->recreateSwap = swap;
        m->shrinkSectors = !swap && newBytes < fsBytes ? (fsBytes - newBytes + ss - 1) / ss : 0;
        m->grow = !swap && !old->filesystem.isEmpty() && newBytes > fsBytes;
        // A move keeps the size asked for; the few sectors alignment adds are no reason to
        // grow a filesystem this session cannot grow (the preview refused real grows).
        const QString noGrow = m->grow && op.sizeBytes == m->oldLength() * ss
                                   ? whyCannotGrowHere(old->filesystem, place)
                                   : QString();
        if (!noGrow.isEmpty()) {
            m->grow = false;
            log(QStringLiteral("  the %1 filesystem keeps its size: %2")
                    .arg(old->filesystem, noGrow));
        }
        return true;
    }

    bool finished(int i, QString *error)
    {
        m_journal.nextOperation = i + 1;
        m_journal.tableBefore.clear();
        m_journal.moves.clear();
        m_journal.phases.clear();
        m_result.completed = i + 1;
        // The operation's redo records go only once the journal says it is done.
        if (!m_journal.save(m_path, error))
            return false;
        move::removeRedoRecordsOf(m_path);
        return true;
    }

    bool failed(int i, const QString &error, bool resumable)
    {
        const QList<Operation> &ops = m_journal.operations;
        DiskLayout now;
        QString readError;
        const QString state = m_context.read(&now, &readError) ? summary(now) : readError;
        m_result.resumable = resumable;
        if (!resumable)
            WriteJournal::remove(m_path); // it failed as a whole: there is nothing to finish
        // What ran, in words: "Operations 1–0 were applied" read as nonsense when the first
        // one failed.
        const QString resume = QStringLiteral("`partwise-cli resume --journal %1 %2` finishes "
                                              "this one and applies the rest.")
                                   .arg(m_path, m_journal.target);
        QString ran;
        if (i == 0)
            ran = resumable ? QStringLiteral("None was finished; ") + resume
                            : QStringLiteral("Nothing was applied.");
        else
            ran = (i == 1 ? QStringLiteral("Operation 1 was applied; ")
                          : QStringLiteral("Operations 1–%1 were applied; ").arg(i)) +
                  (resumable ? resume : QStringLiteral("the rest were not."));
        m_result.error = QStringLiteral("Operation %1 (%2) failed: %3\n%4 The disk now holds: "
                                        "%5.\nThe table before Apply is saved in %6.")
                             .arg(i + 1)
                             .arg(ops[i].description(), error, ran, state, m_journal.backupFolder);
        log(m_result.error);
        return false;
    }

    WriteJournal &m_journal;
    QString m_path;
    const ApplyCallbacks &m_callbacks;
    ApplyResult &m_result;
    OperationContext m_context;
};

// The partitions the queue writes to (0: the whole disk), and the filesystems it resizes.
void touched(const DiskLayout &layout, const QList<Operation> &operations, WriteRequest *request)
{
    request->writesTable = false;
    for (const Operation &op : operations) {
        request->writesTable = request->writesTable || op.changesTable();
        if (op.type == Operation::Type::Create || op.type == Operation::Type::Paste ||
            (op.type == Operation::Type::Check && !op.repair))
            continue;
        const int number = op.type == Operation::Type::NewTable ? 0 : op.number;
        if (!request->partitions.contains(number))
            request->partitions << number;
        const PartitionInfo *p = layout.partitionByNumber(op.number);
        if (op.type != Operation::Type::Resize || !p)
            continue;
        PartitionMove m;
        m.number = p->number;
        m.kind = p->kind;
        m.filesystem = p->filesystem;
        m.oldStart = p->startSector;
        m.oldEnd = p->endSector;
        m.recreateSwap = p->filesystem == QLatin1String("swap");
        request->checks << m;
    }
}

} // namespace

ApplyResult applyOperations(const QString &target, const QList<Operation> &operations,
                            const ApplyOptions &options, const ApplyCallbacks &callbacks)
{
    // No desktop automounter may mount a partition of the disk while it is written.
    const AutomountInhibitor noAutomount(target);
    ApplyResult result;
    const DiskWriteLock lock(target); // no other job writes beside this one
    if (!lock.ok()) {
        result.error = lock.error();
        return result;
    }
    OperationContext context;
    context.target = target;
    context.forcedSectorSize = options.forcedSectorSize;
    WriteRequest request;
    if (!context.read(&request.layout, &result.error))
        return result;
    // A paste's source is read now, whatever the window or the plan knew of it.
    QList<Operation> resolved = operations;
    if (!resolvePasteSources(&resolved, &result.error)) {
        result.error += QStringLiteral(" Nothing was changed.");
        return result;
    }
    const PreviewResult preview = previewOperations(request.layout, resolved, options.policy);
    if (!preview.ok) {
        result.error = QStringLiteral("Operation %1 (%2) cannot be done: %3 Nothing was changed.")
                           .arg(preview.failedIndex + 1)
                           .arg(operations.value(preview.failedIndex).description(), preview.error);
        return result;
    }
    if (operations.isEmpty()) {
        result.ok = true;
        return result;
    }
    const auto log = [&](const QString &line) {
        result.log << line;
        if (callbacks.log)
            callbacks.log(line);
    };
    // What the moves do to booting, said before anything is written; what breaks a loader
    // runs only when accepted.
    OperationsBootEffect boot = readBootEffectOfOperations(request.layout, preview.moves);
    addPasteBootEffects(target, resolved, preview.pastes, &boot);
    for (const QString &line : boot.lines())
        log(line);
    if (boot.breaksBoot() && !options.acceptBootChange) {
        result.error = QStringLiteral("These operations stop a boot loader working, and that was "
                                      "not accepted, so nothing was changed: %1")
                           .arg(boot.breaks.join(QLatin1Char(' ')));
        return result;
    }
    request.target = target;
    touched(request.layout, operations, &request);
    request.journalPath = WriteJournal::defaultPath(target, options.journalFolder);
    request.backupRoot = options.backupRoot;
    QSet<int> checked;
    const WritePreflight preflight = prepareWrite(request, &checked, log);
    if (!preflight.ok()) {
        result.error = preflight.error;
        result.resumable = preflight.resumable;
        result.inUse = preflight.inUse;
        result.journalPath = request.journalPath;
        return result;
    }
    if (const QString destroyed =
            destroyedByNewTable(operations, target, request.layout.wholeDiskFilesystemName());
        !destroyed.isEmpty())
        log(destroyed);
    WriteJournal journal;
    journal.target = target;
    journal.diskIdentity = diskIdentityOf(target);
    journal.sectorSize = request.layout.device.topology.logicalSectorSize;
    journal.backupFolder = preflight.backup.folder;
    journal.operations = operations;
    chooseNewIdentities(request.layout,
                        &journal.operations); // one a plan left open, kept for a resume
    journal.policy = options.policy;
    // Records beside a journal that is gone (deleted by hand) belong to no job: never this one's.
    move::removeRedoRecordsOf(request.journalPath);
    if (!journal.save(request.journalPath, &result.error))
        return result;
    result.backupFolder = journal.backupFolder;
    ApplyJob(journal, request.journalPath, callbacks, result).run();
    return result;
}

ApplyResult continueApply(WriteJournal &journal, const QString &journalPath,
                          const ApplyCallbacks &callbacks)
{
    ApplyResult result;
    // A queue that replaces the table may finish on any label; others would make libparted abort.
    const bool newTable =
        std::any_of(journal.operations.cbegin(), journal.operations.cend(),
                    [](const Operation &op) { return op.type == Operation::Type::NewTable; });
    if (!newTable)
        result.error = foreignLabelRefusal(journal.target, journal.sectorSize);
    if (!result.error.isEmpty()) {
        result.journalPath = journalPath;
        return result;
    }
    ApplyJob(journal, journalPath, callbacks, result).run();
    return result;
}

} // namespace partwise
