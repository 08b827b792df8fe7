#include "cli/copycommand.h"

#include "base/humansize.h"
#include "base/progressthrottle.h"
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
        if (!throttle->due(p.bytesDone >= p.bytesTotal))
            return;
        const int percent = p.bytesTotal ? int(100 * p.bytesDone / p.bytesTotal) : 100;
        err << QStringLiteral("\r  [%1/%2] partition %3 %4: %5% of %6, %7/s, %8 s left   ")
                   .arg(p.partitionIndex + 1)
                   .arg(p.partitionCount)
                   .arg(p.partition)
                   .arg(p.step)
                   .arg(percent)
                   .arg(humanSize(qint64(p.bytesTotal)), humanSize(qint64(p.bytesPerSecond)))
                   .arg(qint64(p.secondsLeft));
        if (p.bytesDone >= p.bytesTotal)
            err << "\n";
        err.flush();
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
