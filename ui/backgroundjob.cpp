#include "backgroundjob.h"

#include <QThread>

BackgroundJob::BackgroundJob(QObject *parent) : QObject(parent) {}

BackgroundJob::~BackgroundJob()
{
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
    return true;
}
