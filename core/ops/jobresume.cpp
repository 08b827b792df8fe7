#include "ops/jobresume.h"

#include "device/automountinhibitor.h"
#include "device/diskidentity.h"
#include "device/diskwritelock.h"
#include "device/writeprotection.h"
#include "ops/applyrunner.h"
#include "ops/journaledfixups.h"
#include "ops/journaledtablecommit.h"
#include "ops/realignexecution.h"
#include "ops/writejournal.h"
#include "ops/writepreflight.h"

#include <QFileInfo>

namespace partwise {

namespace {

RealignResult finishApply(WriteJournal &journal, const QString &path,
                          const RealignCallbacks &callbacks)
{
    ApplyCallbacks ac;
    ac.log = callbacks.log;
    const ApplyResult applied = continueApply(journal, path, ac);
    RealignResult result;
    result.ok = applied.ok;
    result.resumable = applied.resumable;
    result.error = applied.error;
    result.journalPath = path;
    return result;
}

} // namespace

RealignResult resumeWriteJob(const QString &target, const QString &journalPath,
                             const RealignCallbacks &callbacks)
{
    // No desktop automounter may mount a partition of the disk while it is written.
    const AutomountInhibitor noAutomount(target);
    RealignResult result;
    const QString path = journalPath.isEmpty() ? WriteJournal::defaultPath(target) : journalPath;
    result.journalPath = path;
    const DiskWriteLock lock(target); // the job may still be stopping in another process
    if (!lock.ok()) {
        result.error = lock.error();
        result.resumable = true;
        return result;
    }
    WriteJournal journal;
    if (!WriteJournal::load(path, &journal, &result.error))
        return result;
    if (QString why; !isSameDisk(journal.diskIdentity, target, &why)) {
        result.error = QStringLiteral("The journal %1 is not resumed on %2: %3. Nothing was "
                                      "changed; the table of the disk it was written for, as it "
                                      "was before the job, is saved in %4.")
                           .arg(path, target, why, journal.backupFolder);
        return result;
    }
    journal.target = target; // a loop device may come back under another name
    if (isWriteProtected(target)) {
        result.error = QStringLiteral("%1 is read-only; nothing was changed. Make it writable and "
                                      "run `partwise-cli resume --journal %2 %1` again.")
                           .arg(target, path);
        result.resumable = true;
        return result;
    }
    // Whatever was mounted since the job stopped (an automounter after a reboot, a person) stops
    // it again: the rest of the job moves data and writes the table.
    if (const QStringList busy = busyForWrite(target, {0}, true); !busy.isEmpty()) {
        result.error = QStringLiteral("Refusing to resume on %1 while something on it is in use: "
                                      "%2. Nothing was changed; unmount it (or swapoff) and run "
                                      "`partwise-cli resume --journal %3 %1` again.")
                           .arg(target, busy.join(QStringLiteral("; ")), path);
        result.resumable = true;
        return result;
    }
    if (callbacks.log)
        callbacks.log(
            QStringLiteral("Resuming the %1 recorded in %2")
                .arg(journal.isApply() ? QStringLiteral("Apply") : QStringLiteral("realignment"),
                     path));
    // A table write or GRUB's fix-up cut short is finished before anything reads the table.
    const int unfinished = journal.nextUnfinished();
    if (!replayTableRecord(target, tableRedo(path, journal.nextOperation, callbacks.log),
                           &result.error) ||
        (unfinished >= 0 &&
         !replayDiskFixupRecord(target,
                                fixupRedo(moveStepRedo(journal, path, unfinished, callbacks.log)),
                                &result.error))) {
        result.resumable = true;
        return result;
    }
    return journal.isApply() ? finishApply(journal, path, callbacks)
                             : runRealignmentJournal(journal, path, callbacks);
}

} // namespace partwise
