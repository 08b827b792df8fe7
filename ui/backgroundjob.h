#pragma once

// The GUI's one way to run blocking core work (reading a disk, a realignment, a probe, Apply):
// a thread of its own per job, made with QThread::create. The job returns what to do with its
// result; that is called on the GUI thread once the thread has ended, so a slot may start the
// next job at once. Progress goes to the GUI thread through queued calls made by the job
// itself, and cancelling is cooperative: the owner sets the flag its job polls before the job
// is waited for. One BackgroundJob runs one job at a time; queued jobs run after it, in order
// (libparted has one owner at a time anyway: see table/partedsession.h).

#include <QObject>
#include <QQueue>

#include <functional>

class QThread;

class BackgroundJob : public QObject
{
    Q_OBJECT

public:
    using Job = std::function<std::function<void()>()>;

    explicit BackgroundJob(QObject *parent = nullptr);
    // Drops the queued jobs and waits for the one running: cancel it first.
    ~BackgroundJob() override;

    bool isBusy() const { return m_thread != nullptr; }
    // Starts `job` on a thread named `name`; does nothing while another job runs.
    bool start(Job job, const QString &name);
    // Starts `job` now, or once the jobs before it have run and delivered.
    void enqueue(Job job, const QString &name);

private:
    struct Queued
    {
        Job job;
        QString name;
    };
    void onThreadEnded();

    QThread *m_thread = nullptr;
    std::function<void()> m_deliver; // written by the job's thread, read after it ended
    QQueue<Queued> m_queue;
};
