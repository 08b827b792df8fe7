#include "probe/probeworker.h"

#include <QElapsedTimer>
#include <QThread>

#include <memory>

ProbeWorker::ProbeWorker(QObject *parent) : QObject(parent) {}

ProbeWorker::~ProbeWorker()
{
    if (m_thread) {
        m_cancel.store(true);
        m_thread->wait();
        delete m_thread;
    }
}

void ProbeWorker::run(const QString &devicePath, const SectorProbeOptions &options)
{
    if (m_thread)
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
    m_thread = QThread::create([this, devicePath, o] {
        ProbeResult result;
        result.run = runSectorProbe(devicePath, o);
        if (result.run.outcome == SectorProbeRun::Outcome::Measured) {
            result.verdict = analyseProbe(result.run);
            result.memory = rememberProbeVerdict(devicePath, result.run, result.verdict);
        }
        m_deliver = [this, result] { emit finished(result); };
    });
    m_thread->setObjectName(QStringLiteral("partwise-probe"));
    connect(m_thread, &QThread::finished, this, [this] {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
        const std::function<void()> deliver = std::move(m_deliver);
        m_deliver = nullptr;
        if (deliver)
            deliver();
    });
    m_thread->start();
}
