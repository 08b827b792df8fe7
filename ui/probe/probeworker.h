#pragma once

#include "probe/probeanalysis.h"
#include "probe/sectorprobe.h"
#include "report/probereport.h"

#include "backgroundjob.h"

#include <QObject>

#include <atomic>
#include <functional>

// Everything one probe gave: what was timed, what it means, what is now remembered.
struct ProbeResult
{
    partwise::SectorProbeRun run;
    partwise::ProbeVerdict verdict;
    partwise::ProbeMemory memory;
};

// Runs the timing probe (core/probe/sectorprobe.h, which blocks for seconds) as a BackgroundJob,
// as RealignWorker runs a realignment: progress handed to the GUI thread through queued calls,
// the result delivered once the thread has ended, and a cooperative cancel through an atomic
// flag the probe checks between two writes.
class ProbeWorker : public QObject
{
    Q_OBJECT

public:
    explicit ProbeWorker(QObject *parent = nullptr);
    ~ProbeWorker() override; // cancels and waits: the probe stops between two writes

    bool isBusy() const { return m_job.isBusy(); }
    // Probes `devicePath`, analyses the times and remembers the verdict for the drive.
    void run(const QString &devicePath, const partwise::SectorProbeOptions &options = {});
    void cancel() { m_cancel.store(true); }

signals:
    void progress(double fraction);
    void finished(const ProbeResult &result);

private:
    std::atomic<bool> m_cancel{false}; // before m_job: destroyed after the job was waited for
    BackgroundJob m_job;
};
