#include "cli/probecommand.h"

#include "base/progressthrottle.h"
#include "probe/probeanalysis.h"
#include "probe/probeplaces.h"
#include "report/probereport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace partwise {

int runProbeCommand(const ProbeCommandOptions &o, QTextStream &out, QTextStream &err,
                    const std::function<bool(const QString &)> &confirm)
{
    auto refuse = [&](const QString &reason) {
        err << "partwise-cli: " << reason << "\n";
        if (o.json) {
            const QJsonObject error{{QStringLiteral("path"), o.target},
                                    {QStringLiteral("error"), reason}};
            out << QJsonDocument(QJsonObject{{QStringLiteral("devices"), QJsonArray()},
                                             {QStringLiteral("errors"), QJsonArray{error}}})
                       .toJson(QJsonDocument::Indented);
        }
        out.flush();
        err.flush();
        return int(ExitBadInput);
    };
    const ProbeTarget target = examineProbeTarget(o.target);
    if (!target.ok)
        return refuse(target.error);
    if (!o.assumeYes) {
        const int places =
            int(chooseProbePlaces(target.ranges, o.probe.places, probeWindowBytes()).size());
        if (!(confirm && confirm(probeQuestion(o.target, places, o.probe.budgetMs)))) {
            err << "partwise-cli: not confirmed; nothing was written (use --yes in scripts).\n";
            return ExitMisalignedOrFailed;
        }
    }

    SectorProbeOptions options = o.probe;
    auto throttle = std::make_shared<ProgressThrottle>(250);
    if (!options.progress) // the caller's progress (the helper's notifications) comes first
        options.progress = [&err, throttle](double fraction) {
            if (!throttle->due(fraction >= 1.0))
                return;
            err << QStringLiteral("\r  probing: %1%   ").arg(int(fraction * 100));
            if (fraction >= 1.0)
                err << "\n";
            err.flush();
        };
    const SectorProbeRun run = runSectorProbe(o.target, options);
    if (run.outcome == SectorProbeRun::Outcome::Refused)
        return refuse(run.reason);
    const ProbeVerdict verdict = analyseProbe(run);
    const ProbeMemory memory = rememberProbeVerdict(o.target, run, verdict);
    if (o.json)
        out << QJsonDocument(QJsonObject{{QStringLiteral("devices"),
                                          QJsonArray{probeToJson(run, verdict, memory)}}})
                   .toJson(QJsonDocument::Indented);
    else if (run.outcome == SectorProbeRun::Outcome::Measured)
        out << probeToText(run, verdict, memory);
    if (run.outcome != SectorProbeRun::Outcome::Measured)
        err << "partwise-cli: " << run.reason << "\n";
    out.flush();
    err.flush();
    return run.outcome == SectorProbeRun::Outcome::Measured ? ExitOk : ExitMisalignedOrFailed;
}

} // namespace partwise
