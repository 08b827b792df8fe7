#include "probe/probeworker.h"

#include "base/progressthrottle.h"
#include "probe/probeanalysis.h"

#include <memory>

using namespace partwise;

ProbeWorker::ProbeWorker(const QString &devicePath, const SectorProbeOptions &options,
                         QObject *parent)
    : ProbeRunner(parent), m_path(devicePath), m_options(options)
{
}

ProbeWorker::~ProbeWorker()
{
    m_cancel.store(true); // the probe stops between two writes; m_job then waits for it
}

void ProbeWorker::run()
{
    if (m_job.isBusy())
        return;
    m_cancel.store(false);
    SectorProbeOptions o = m_options;
    o.cancel = &m_cancel;
    // The probe reports after every write; ten updates a second are plenty to watch.
    auto throttle = std::make_shared<ProgressThrottle>(100);
    o.progress = [this, throttle](double fraction) {
        if (!throttle->due(fraction >= 1.0))
            return;
        QMetaObject::invokeMethod(
            this, [this, fraction] { emit progress(fraction); }, Qt::QueuedConnection);
    };
    m_job.start(
        [this, path = m_path, o]() -> std::function<void()> {
            ProbeReport report;
            report.run = runSectorProbe(path, o);
            report.writes = int(report.run.samples.size());
            if (report.run.outcome == SectorProbeRun::Outcome::Measured) {
                report.verdict = analyseProbe(report.run);
                report.memory = rememberProbeVerdict(path, report.run, report.verdict);
            }
            return [this, report] { emit finished(report); };
        },
        QStringLiteral("partwise-probe"));
}
