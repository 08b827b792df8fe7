#pragma once

#include "backgroundjob.h"
#include "copy/copybackend.h"

#include <atomic>

// The copy's blocking core calls (prepareCopy, runCopy, resumeCopy) in this process, one
// BackgroundJob at a time, for a window that reads its disks itself (running as root).
class CopyWorker : public CopyBackend
{
    Q_OBJECT

public:
    explicit CopyWorker(QObject *parent = nullptr);
    ~CopyWorker() override; // a copy under way stops at its next chunk, resumable

    bool isBusy() const override { return m_job.isBusy(); }
    void createImage(const QString &path, qint64 bytes) override;
    void plan(const CopyRequest &request) override;
    void run(const CopyRequest &request, const partwise::CopyPlan &shown,
             bool acceptBootChange) override;
    void resume(const QString &target) override;
    void cancel() override { m_cancel.store(true); }
    bool cancelRequested() const override { return m_cancel.load(); }

private:
    partwise::CopyCallbacks callbacks();

    std::atomic<bool> m_cancel{false}; // before m_job: destroyed after the job was waited for
    BackgroundJob m_job;
};
