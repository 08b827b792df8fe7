#pragma once

// Where a disk copy is planned and run. The Copy Disk wizard's pages speak only to this; the
// answers always arrive on the GUI thread. CopyWorker does the work in this process, on a
// thread (a window running as root, for its own disks and images); HelperCopyBackend has a
// helper do it (`partwise-cli serve`: the user's own for images, the administrator's for this
// computer's disks, or another machine's over ssh), where both disks are.

#include "ops/copyrunner.h"

#include <QObject>
#include <QStringList>

// What the person asked: a source, a target (as the helper or this process names them) and the
// copy's options.
struct CopyRequest
{
    QString source, target;
    partwise::CopyOptions options;
};

class CopyBackend : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual bool isBusy() const = 0;
    // A new, sparse image file of `bytes` for the target; never replaces an existing file.
    virtual void createImage(const QString &path, qint64 bytes) = 0;
    virtual void plan(const CopyRequest &request) = 0;
    // Runs the copy the person saw: the plan is made again where the work is done, and the copy
    // refused when it places the partitions elsewhere.
    virtual void run(const CopyRequest &request, const partwise::CopyPlan &shown,
                     bool acceptBootChange) = 0;
    virtual void resume(const QString &target) = 0;
    virtual void cancel() = 0;
    virtual bool cancelRequested() const = 0;

signals:
    void imageCreated(bool ok, const QString &error);
    // `error` set when there is no plan; `interruptedJournal` names a stopped copy onto the
    // target, which must be finished first.
    void planned(const partwise::CopyPlan &plan, const QString &error,
                 const QString &interruptedJournal);
    void logLine(const QString &line);
    void progress(const partwise::CopyProgress &progress);
    void finished(const partwise::CopyResult &result);
};
