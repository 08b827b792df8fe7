#include "backgroundjob.h"

#include <QPointer>
#include <QThread>

BackgroundJob::BackgroundJob(QObject *parent) : QObject(parent) {}

BackgroundJob::~BackgroundJob()
{
    m_queue.clear();
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

bool BackgroundJob::start(Job job, const QString &name)
{
    if (m_thread)
        return false;
    m_thread = QThread::create([this, job = std::move(job)] { m_deliver = job(); });
    m_thread->setObjectName(name);
    connect(m_thread, &QThread::finished, this, &BackgroundJob::onThreadEnded);
    m_thread->start();
    return true;
}

void BackgroundJob::enqueue(Job job, const QString &name)
{
    if (!m_thread)
        start(std::move(job), name);
    else
        m_queue.enqueue({std::move(job), name});
}

void BackgroundJob::onThreadEnded()
{
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    const std::function<void()> deliver = std::move(m_deliver);
    m_deliver = nullptr;
    const QPointer<BackgroundJob> alive(this);
    if (deliver)
        deliver(); // may end the owner, and this with it
    if (!alive)
        return;
    // The delivery may have started a job of its own: the queue waits for that one too.
    if (!m_thread && !m_queue.isEmpty()) {
        Queued next = m_queue.dequeue();
        start(std::move(next.job), next.name);
    }
}
