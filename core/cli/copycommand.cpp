#include "cli/copycommand.h"

#include "base/progressthrottle.h"
#include "cli/terminalprogress.h"
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

} // namespace

int runCopyCommand(const CopyCommandOptions &o, QTextStream &out, QTextStream &err,
                   const std::function<bool(const QString &)> &confirm)
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
        return ExitMisalignedOrFailed;
    }
    if (o.dryRun)
        return ExitOk;
    if (!o.assumeYes &&
        !confirm(QStringLiteral("Everything on %1 will be replaced. Copy?").arg(params.target))) {
        err << "partwise-cli: cancelled; nothing was written.\n";
        return ExitMisalignedOrFailed;
    }
    return finish(runCopy(prepared, params.options, terminalCallbacks(out, err)), out, err);
}

bool resumeCopyCommand(const QString &target, const QString &journalPath, QTextStream &out,
                       QTextStream &err, int *status)
{
    const bool isCopy = journalPath.isEmpty() ? copyJournalExists(target)
                                              : journalPath.endsWith(QLatin1String(".copy"));
    if (!isCopy)
        return false;
    *status = finish(resumeCopy(target, journalPath, terminalCallbacks(out, err)), out, err);
    return true;
}

} // namespace partwise
