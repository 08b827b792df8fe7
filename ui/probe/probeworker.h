#pragma once

#include "probe/proberunner.h"
#include "probe/sectorprobe.h"

#include "backgroundjob.h"

#include <atomic>

// Runs the timing probe (core/probe/sectorprobe.h, which blocks for seconds) on a drive this
// window may open, as a BackgroundJob, as RealignWorker runs a realignment: progress handed to
// the GUI thread through queued calls, the result delivered once the thread has ended, and a
// cooperative cancel through an atomic flag the probe checks between two writes.
class ProbeWorker : public ProbeRunner
{
    Q_OBJECT

public:
    explicit ProbeWorker(const QString &devicePath,
                         const partwise::SectorProbeOptions &options = {},
                         QObject *parent = nullptr);
    ~ProbeWorker() override; // cancels and waits: the probe stops between two writes

    bool isBusy() const override { return m_job.isBusy(); }
    void run() override;
    void cancel() override { m_cancel.store(true); }

private:
    QString m_path;
    partwise::SectorProbeOptions m_options;
    std::atomic<bool> m_cancel{false}; // before m_job: destroyed after the job was waited for
    BackgroundJob m_job;
};
