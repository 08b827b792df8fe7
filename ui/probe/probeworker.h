#pragma once

#include "device/probeanalysis.h"
#include "device/sectorprobe.h"
#include "report/probecommand.h"

#include <QObject>

#include <atomic>
#include <functional>

class QThread;

// Everything one probe gave: what was timed, what it means, what is now remembered.
struct ProbeResult
{
    SectorProbeRun run;
    ProbeVerdict verdict;
    ProbeMemory memory;
};

// Runs the timing probe (core/device/sectorprobe.h, which blocks for seconds) on a thread of its
// own, the way RealignWorker runs a realignment: QThread::create for the job, progress handed to
// the GUI thread through queued calls, the result delivered once the thread has ended, and a
// cooperative cancel through an atomic flag the probe checks between two writes.
class ProbeWorker : public QObject
{
    Q_OBJECT

public:
    explicit ProbeWorker(QObject *parent = nullptr);
    ~ProbeWorker() override; // cancels and waits: the probe stops between two writes

    bool isBusy() const { return m_thread != nullptr; }
    // Probes `devicePath`, analyses the times and remembers the verdict for the drive.
    void run(const QString &devicePath, const SectorProbeOptions &options = {});
    void cancel() { m_cancel.store(true); }

signals:
    void progress(double fraction);
    void finished(const ProbeResult &result);

private:
    QThread *m_thread = nullptr;
    std::function<void()> m_deliver; // written by the job's thread, read after it ended
    std::atomic<bool> m_cancel{false};
};
