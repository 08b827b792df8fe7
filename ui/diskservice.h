#pragma once

#include "diskworker.h"

#include <QObject>
#include <QThread>

// Owns the thread the DiskWorker runs on, so the window paints at once and fills in as disks
// are read. One thread is enough: libparted serialises everything behind one lock anyway.
class DiskService : public QObject
{
    Q_OBJECT

public:
    explicit DiskService(QObject *parent = nullptr);
    ~DiskService() override;

    void listDisks();
    void read(const QString &path, qint64 forcedSectorSize = 0);
    void createPracticeDisk(const PracticeDiskSpec &spec);
    void createDemoDisk(const QString &folder);

signals:
    void disksListed(const QStringList &paths);
    void diskRead(const QString &path, const DiskReadResult &result);
    void imageCreated(const QString &path, const QString &error);

private:
    QThread m_thread;
    DiskWorker *m_worker = nullptr; // owned by m_thread once started
};
