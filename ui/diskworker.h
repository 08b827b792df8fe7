#pragma once

#include "ops/practicedisk.h"
#include "table/diskreader.h"

#include <QObject>

// The slow disk work, done on a worker thread: reading a table (libparted, blkid probing)
// and creating practice images (mkfs tools). Lives in DiskService's thread; talk to it only
// through queued signals.
class DiskWorker : public QObject
{
    Q_OBJECT

public slots:
    void listDisks();
    void read(const QString &path, qint64 forcedSectorSize);
    void createPracticeDisk(const PracticeDiskSpec &spec);
    void createDemoDisk(const QString &folder);

signals:
    void disksListed(const QStringList &paths);
    void diskRead(const QString &path, const DiskReadResult &result);
    // `path` is the image created; `error` says why not when it is empty.
    void imageCreated(const QString &path, const QString &error);
};

Q_DECLARE_METATYPE(DiskReadResult)
Q_DECLARE_METATYPE(PracticeDiskSpec)
