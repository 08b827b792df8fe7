#include "cli/copycommand.h"

#include "base/progressthrottle.h"
#include "cli/terminalprogress.h"
#include "cli/unmountforjob.h"
#include "ops/copyboot.h"
#include "ops/copyjournal.h"
#include "ops/copyrunner.h"

#include <memory>

namespace partwise {

namespace {

CopyCallbacks terminalCallbacks(QTextStream &out, QTextStream &err)
{
    CopyCallbacks callbacks;
    callbacks.log = [&out](const QString &line) {
        out << line << "\n";
        out.flush();
    };
    auto throttle = std::make_shared<ProgressThrottle>(250);
    callbacks.progress = [&err, throttle](const CopyProgress &p) {
        drawStepProgress(err, *throttle,
                         StepProgress{p.partitionIndex, p.partitionCount, p.partition, p.step,
                                      p.bytesDone, p.bytesTotal, p.bytesPerSecond, p.secondsLeft});
    };
    return callbacks;
}

int finish(const CopyResult &r, QTextStream &out, QTextStream &err)
{
    for (const QString &c : r.checks)
        out << "  " << c << "\n";
    if (!r.ok) {
        err << "partwise-cli: " << r.error << "\n";
        return ExitMisalignedOrFailed;
    }
    return ExitOk;
}

int planAndCopy(const CopyCommandOptions &o, QTextStream &out, QTextStream &err,
                const std::function<bool(const QString &)> &confirm, bool *stoppedMidway)
{
    const CopyParams &params = o.params;
    const PreparedCopy prepared = prepareCopy(params.source, params.target, params.options);
    if (!prepared.ok) {
        err << "partwise-cli: " << prepared.error << "\n";
        return ExitBadInput;
    }
    for (const QString &line : copyPlanText(prepared.plan))
        out << line << "\n";
    out.flush();
    if (!prepared.plan.ok()) {
        err << "partwise-cli: the copy cannot run: " << prepared.plan.refused.join(QLatin1Char(' '))
            << " Nothing was written.\n";
        if (o.dryRun && o.unmount &&
            !(prepared.facts.busySource.isEmpty() && prepared.facts.busyTarget.isEmpty()))
            err << "partwise-cli: without --dry-run, --unmount unmounts these first and plans "
                   "again.\n";
        return ExitMisalignedOrFailed;
    }
    if (o.dryRun)
        return ExitOk;
    if (const QString boot = copyBootRefusal(prepared.plan, params.options.acceptBootChange);
        !boot.isEmpty()) {
        err << "partwise-cli: " << boot << "\n";
        return ExitMisalignedOrFailed;
    }
    if (!o.assumeYes &&
        !confirm(QStringLiteral("Everything on %1 will be replaced. Copy?").arg(params.target))) {
        err << "partwise-cli: cancelled; nothing was written.\n";
        return ExitMisalignedOrFailed;
    }
    const CopyResult result = runCopy(prepared, params.options, terminalCallbacks(out, err));
    *stoppedMidway = result.resumable;
    return finish(result, out, err);
}

} // namespace

int runCopyCommand(const CopyCommandOptions &o, QTextStream &out, QTextStream &err,
                   const std::function<bool(const QString &)> &confirm)
{
    bool stoppedMidway = false;
    if (!o.unmount || o.dryRun)
        return planAndCopy(o, out, err, confirm, &stoppedMidway);
    // Released before planning: a filesystem mounted read-write has no used-block map worth
    // trusting, and the plan shown must be the plan run.
    const int onlyPartition = o.params.options.sourcePartition;
    QList<ReleasedPartition> source, target;
    if (!releaseForJob(o.params.source, onlyPartition ? QList<int>{onlyPartition} : QList<int>{},
                       out, err, &source))
        return ExitMisalignedOrFailed;
    if (!releaseForJob(o.params.target, {}, out, err, &target)) {
        restoreAfterJob(source, false, out, err);
        return ExitMisalignedOrFailed;
    }
    const int status = planAndCopy(o, out, err, confirm, &stoppedMidway);
    // The target's filesystems were replaced, or (refused, declined) are still there.
    if (status != ExitOk && !stoppedMidway)
        restoreAfterJob(target, false, out, err);
    else if (!target.isEmpty())
        out << "The target's old filesystems were replaced, so they are not mounted back.\n";
    const bool restored = restoreAfterJob(source, stoppedMidway, out, err);
    return status == ExitOk && !restored ? ExitMisalignedOrFailed : status;
}

bool resumeCopyCommand(const QString &target, const QString &journalPath, QTextStream &out,
                       QTextStream &err, int *status)
{
    const bool isCopy = journalPath.isEmpty() ? copyJournalExists(target)
                                              : journalPath.endsWith(QLatin1String(".copy")) ||
                                                    CopyJournal::isCopyJournal(journalPath);
    if (!isCopy)
        return false;
    *status = finish(resumeCopy(target, journalPath, terminalCallbacks(out, err)), out, err);
    return true;
}

} // namespace partwise
