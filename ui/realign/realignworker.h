#pragma once

#include "backgroundjob.h"
#include "realign/realignbackend.h"

#include <atomic>

// Runs the blocking realignment calls of core/ops in this process as BackgroundJobs, one job at
// a time: planning (prepareRealignment, the busy check, an interrupted run's journal), running a
// plan, or resuming an interrupted one. After a run or a resume the disk is read again so the
// wizard can show it as it is now.
class RealignWorker : public RealignBackend
{
    Q_OBJECT

public:
    explicit RealignWorker(QObject *parent = nullptr);
    ~RealignWorker() override; // waits for the job: the disk must not be left mid-step

    bool isBusy() const override { return m_job.isBusy(); }

    void prepare(const QString &target, const partwise::RealignOptions &options,
                 const partwise::RealignRequest &request) override;
    void run(const QString &target, const partwise::PreparedRealign &prepared,
             const partwise::RealignOptions &options) override;
    void resume(const QString &target, const QString &journalPath,
                qint64 forcedSectorSize) override;

    void cancel() override { m_cancel.store(true); }
    bool cancelRequested() const override { return m_cancel.load(); }
    bool loadJournal(const QString &path, partwise::WriteJournal *journal) const override;

private:
    void start(BackgroundJob::Job job, const char *name);
    partwise::RealignCallbacks callbacks();

    std::atomic<bool> m_cancel{false}; // before m_job: destroyed after the job was waited for
    BackgroundJob m_job;
};
