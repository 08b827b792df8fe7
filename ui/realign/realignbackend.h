#pragma once

// Where a realignment is planned and run. The wizard's pages speak only to this: they ask for a
// plan, a run or a resume, and follow the answers, which always arrive on the GUI thread.
// RealignWorker does the work in this process, on a thread; HelperRealignBackend has a helper
// do it (`partwise-cli serve`, as administrator on this computer or on another machine over
// ssh), where the disk and its journal are.

#include "ops/realignrunner.h"
#include "table/disklayout.h"

#include <QObject>
#include <QStringList>

namespace partwise {
struct WriteJournal;
}

class RealignBackend : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // A plan, run or resume is under way (one at a time).
    virtual bool isBusy() const = 0;

    // `target` is the disk as the window names it.
    virtual void prepare(const QString &target, const partwise::RealignOptions &options,
                         const partwise::RealignRequest &request) = 0;
    virtual void run(const QString &target, const partwise::PreparedRealign &prepared,
                     const partwise::RealignOptions &options) = 0;
    virtual void resume(const QString &target, const QString &journalPath,
                        qint64 forcedSectorSize) = 0;

    // Asks the data mover to stop at its next chunk; the journal keeps a resumable state.
    virtual void cancel() = 0;
    virtual bool cancelRequested() const = 0;

    // A run's journal, when it is where this process can read it (a helper keeps its own).
    virtual bool loadJournal(const QString &path, partwise::WriteJournal *journal) const = 0;
    // The journal of an interrupted run the last plan found (it is among `busy` then); empty
    // when there was none.
    QString interruptedJournal() const { return m_interruptedJournal; }

protected:
    void setInterruptedJournal(const QString &path) { m_interruptedJournal = path; }

signals:
    // `busy` lists why the plan cannot run now (partitions in use, an interrupted run).
    void prepared(const partwise::PreparedRealign &prepared, const QStringList &busy);
    void logLine(const QString &line);
    // While planning: how far the used-block map of `partition` is read (0 to 1), for
    // filesystems large enough that it takes seconds.
    void mapProgress(int partition, double fraction);
    void progress(const partwise::RealignProgress &progress);
    // `before` is the disk as read just before a resume (the plan's disk for a run); `after`
    // as read once the work stopped (afterOk false when it could not be read).
    void finished(const partwise::RealignResult &result, const partwise::DiskLayout &before,
                  const partwise::DiskLayout &after, bool afterOk);

private:
    QString m_interruptedJournal;
};
