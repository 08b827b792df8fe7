#include "probe/probeworker.h"

#include <QElapsedTimer>

#include <memory>

using namespace partwise;

ProbeWorker::ProbeWorker(QObject *parent) : QObject(parent) {}

ProbeWorker::~ProbeWorker()
{
    m_cancel.store(true); // the probe stops between two writes; m_job then waits for it
}

void ProbeWorker::run(const QString &devicePath, const SectorProbeOptions &options)
{
    if (m_job.isBusy())
        return;
    m_cancel.store(false);
    SectorProbeOptions o = options;
    o.cancel = &m_cancel;
    // The probe reports after every write; ten updates a second are plenty to watch.
    auto timer = std::make_shared<QElapsedTimer>();
    o.progress = [this, timer](double fraction) {
        if (timer->isValid() && timer->elapsed() < 100 && fraction < 1.0)
            return;
        timer->start();
        QMetaObject::invokeMethod(
            this, [this, fraction] { emit progress(fraction); }, Qt::QueuedConnection);
    };
    m_job.start(
        [this, devicePath, o]() -> std::function<void()> {
            ProbeResult result;
            result.run = runSectorProbe(devicePath, o);
            if (result.run.outcome == SectorProbeRun::Outcome::Measured) {
                result.verdict = analyseProbe(result.run);
                result.memory = rememberProbeVerdict(devicePath, result.run, result.verdict);
            }
            return [this, result] { emit finished(result); };
        },
        QStringLiteral("partwise-probe"));
}
