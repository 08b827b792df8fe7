#include "diskservice.h"

DiskService::DiskService(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<DiskReadResult>();
    qRegisterMetaType<PracticeDiskSpec>();
    m_thread.setObjectName(QStringLiteral("partwise-disk-worker"));
    m_worker = new DiskWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &DiskWorker::disksListed, this, &DiskService::disksListed);
    connect(m_worker, &DiskWorker::diskRead, this, &DiskService::diskRead);
    connect(m_worker, &DiskWorker::imageCreated, this, &DiskService::imageCreated);
    m_thread.start();
}

DiskService::~DiskService()
{
    // Let the current job finish (libparted cannot be interrupted), drop the queued ones.
    m_thread.quit();
    m_thread.wait();
}

void DiskService::listDisks()
{
    DiskWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker] { worker->listDisks(); }, Qt::QueuedConnection);
}

void DiskService::read(const QString &path, qint64 forcedSectorSize)
{
    DiskWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, path, forcedSectorSize] { worker->read(path, forcedSectorSize); },
        Qt::QueuedConnection);
}

void DiskService::createPracticeDisk(const PracticeDiskSpec &spec)
{
    DiskWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, spec] { worker->createPracticeDisk(spec); }, Qt::QueuedConnection);
}

void DiskService::createDemoDisk(const QString &folder)
{
    DiskWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, folder] { worker->createDemoDisk(folder); }, Qt::QueuedConnection);
}
