#include "cli/realigncommand.h"

#include "base/humansize.h"
#include "base/progressthrottle.h"
#include "cli/copycommand.h"
#include "cli/terminalprogress.h"
#include "cli/unmountforjob.h"
#include "ops/jobresume.h"
#include "ops/realignplantext.h"

#include <algorithm>

namespace partwise {

namespace {

RealignCallbacks terminalCallbacks(QTextStream &out, QTextStream &err)
{
    RealignCallbacks callbacks;
    callbacks.log = [&out](const QString &line) {
        out << line << "\n";
        out.flush();
    };
    auto throttle = std::make_shared<ProgressThrottle>(250);
    callbacks.progress = [&err, throttle](const RealignProgress &p) {
        drawStepProgress(err, *throttle,
                         StepProgress{p.moveIndex, p.moveCount, p.partition, p.step, p.bytesDone,
                                      p.bytesTotal, p.bytesPerSecond, p.secondsLeft});
    };
    return callbacks;
}

int finish(const RealignResult &r, QTextStream &out, QTextStream &err, bool somethingStays = false)
{
    for (const QString &c : r.checks)
        out << "  " << c << "\n";
    if (!r.ok) {
        err << "partwise-cli: " << r.error << "\n";
        return ExitMisalignedOrFailed;
    }
    // Partitions that had to stay misaligned mean the work is not done.
    return somethingStays ? ExitMisalignedOrFailed : ExitOk;
}

bool misalignedStays(const RealignPlan &plan)
{
    return std::any_of(plan.skipped.cbegin(), plan.skipped.cend(),
                       [](const RealignSkip &k) { return k.misaligned; });
}

} // namespace

int runRealignCommand(const RealignCommandOptions &o, QTextStream &out, QTextStream &err,
                      const std::function<bool(const QString &)> &confirm)
{
    // A large filesystem's map takes seconds to read: say how far, on one line that is
    // finished before the plan is printed.
    RealignOptions planning = o.realign;
    bool mapShown = false;
    auto mapThrottle = std::make_shared<ProgressThrottle>(250);
    planning.mapProgress = [&err, &mapShown, mapThrottle](int partition, const QString &step,
                                                          double fraction) {
        if (!mapThrottle->due(fraction >= 1.0))
            return;
        err << QStringLiteral("\r  partition %1: %2, %3%   ")
                   .arg(partition)
                   .arg(step)
                   .arg(int(100 * fraction));
        err.flush();
        mapShown = true;
    };
    const PreparedRealign prepared = prepareRealignment(o.target, planning, o.request);
    if (mapShown) {
        err << "\n";
        err.flush();
    }
    if (!prepared.ok) {
        err << "partwise-cli: " << prepared.error << "\n";
        return ExitBadInput;
    }
    out << "Realignment plan for " << o.target << " (grain "
        << humanSize(prepared.plan.geometry.grainBytes) << "):\n"
        << realignPlanText(prepared);
    if (!prepared.plan.moves.isEmpty())
        out << QStringLiteral("  %1 to move; roughly %2 s at 100 MiB/s\n")
                   .arg(humanSize(prepared.plan.totalBytes()))
                   .arg(qint64(estimateRealignSeconds(prepared.plan)) + 1);
    if (!prepared.plan.moves.isEmpty() && !prepared.journal.survivesPowerCut)
        err << "partwise-cli: warning: " << prepared.journal.warning << "\n";
    if (!prepared.plan.moves.isEmpty() && prepared.driveHealth.risky())
        err << "partwise-cli: warning: " << riskyDriveWarning(o.target, prepared.driveHealth)
            << "\n";
    out.flush();
    err.flush();
    if (o.dryRun)
        return ExitOk;
    if (prepared.plan.moves.isEmpty())
        return misalignedStays(prepared.plan) ? ExitMisalignedOrFailed : ExitOk;
    if (!prepared.bootBreaks.isEmpty() && !o.acceptBootChange) {
        err << "partwise-cli: this plan stops a boot loader working (\"boot BREAKS\" above), so "
               "nothing was changed. Run again with --accept-boot-change to move anyway, then "
               "repair it as shown.\n";
        return ExitMisalignedOrFailed;
    }
    if (!prepared.unchecked.isEmpty() && !o.realign.acceptUnchecked) {
        err << "partwise-cli: this plan moves a filesystem Partwise cannot check (\"unchecked\" "
               "above), so nothing was changed. Check it with its own tool, then run again with "
               "--accept-unchecked.\n";
        return ExitMisalignedOrFailed;
    }
    if (!o.assumeYes &&
        !(confirm &&
          confirm(QStringLiteral("Move these partitions on %1? Back up important data first.")
                      .arg(o.target)))) {
        err << "partwise-cli: not confirmed; nothing was changed (use --yes in scripts).\n";
        return ExitMisalignedOrFailed;
    }
    // The run writes the table, which needs every partition of the disk free (writepreflight.h).
    QList<ReleasedPartition> released;
    if (o.unmount && !releaseForJob(o.target, {}, out, err, &released))
        return ExitMisalignedOrFailed;
    RealignResult result =
        runRealignment(o.target, prepared, o.realign, terminalCallbacks(out, err));
    const bool restored = restoreAfterJob(released, result.resumable, out, err);
    if (result.shrinkRefused > 0 && nextWayWithoutShrink(prepared.plan, result.shrinkRefused))
        result.error += QStringLiteral(" To take it, run again with --prefer move (see the plan "
                                       "with --dry-run first).");
    // Partitions that had to stay misaligned make the exit status 1 even when every move ran.
    return finish(result, out, err, misalignedStays(prepared.plan) || !restored);
}

int runResumeCommand(const QString &target, const QString &journalPath, QTextStream &out,
                     QTextStream &err)
{
    if (int status = 0; resumeCopyCommand(target, journalPath, out, err, &status))
        return status; // a disk copy's journal (copyrunner.h)
    return finish(resumeWriteJob(target, journalPath, terminalCallbacks(out, err)), out, err);
}

} // namespace partwise
