#pragma once

#include "backgroundjob.h"
#include "ops/realignrunner.h"
#include "table/disklayout.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>

// Runs the blocking realignment calls of core/ops as BackgroundJobs, one job at a time,
// and reports back on the GUI thread through signals: planning (prepareRealignment and the busy
// check), running a plan, or resuming an interrupted one. After a run or a resume the disk is
// read again so the wizard can show it as it is now.
class RealignWorker : public QObject
{
    Q_OBJECT

public:
    explicit RealignWorker(QObject *parent = nullptr);
    ~RealignWorker() override; // waits for the job: the disk must not be left mid-step

    bool isBusy() const { return m_job.isBusy(); }

    void prepare(const QString &target, const partwise::RealignOptions &options,
                 const partwise::RealignRequest &request);
    void run(const QString &target, const partwise::PreparedRealign &prepared,
             const partwise::RealignOptions &options);
    void resume(const QString &target, const QString &journalPath, qint64 forcedSectorSize);

    // Asks the data mover to stop at its next chunk; the journal keeps a resumable state.
    void cancel() { m_cancel.store(true); }
    bool cancelRequested() const { return m_cancel.load(); }

signals:
    // `busy` lists why partitions of the plan cannot be moved now (mounted, swap, holders).
    void prepared(const partwise::PreparedRealign &prepared, const QStringList &busy);
    void logLine(const QString &line);
    void progress(const partwise::RealignProgress &progress);
    // `before` is the disk as read just before a resume (empty for a run); `after` as read
    // once the work stopped (afterOk false when it could not be read).
    void finished(const partwise::RealignResult &result, const partwise::DiskLayout &before,
                  const partwise::DiskLayout &after, bool afterOk);

private:
    void start(BackgroundJob::Job job, const char *name);
    partwise::RealignCallbacks callbacks();

    std::atomic<bool> m_cancel{false}; // before m_job: destroyed after the job was waited for
    BackgroundJob m_job;
};
