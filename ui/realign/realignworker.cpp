#include "realign/realignworker.h"

#include "base/progressthrottle.h"

#include "ops/jobresume.h"
#include "ops/writejournal.h"
#include "ops/writepreflight.h"
#include "table/diskreader.h"

#include <QElapsedTimer>
#include <QFile>

#include <memory>

using namespace partwise;

namespace {

DiskReadResult readAgain(const QString &target, qint64 forcedSectorSize)
{
    DiskReadOptions options;
    options.forcedSectorSize = forcedSectorSize;
    return readDisk(target, options);
}

} // namespace

RealignWorker::RealignWorker(QObject *parent) : RealignBackend(parent) {}

RealignWorker::~RealignWorker()
{
    m_cancel.store(true); // a move stops at its next chunk, resumable; m_job then waits for it
}

void RealignWorker::start(BackgroundJob::Job job, const char *name)
{
    m_job.start(std::move(job), QString::fromLatin1(name));
}

RealignCallbacks RealignWorker::callbacks()
{
    RealignCallbacks callbacks;
    callbacks.log = [this](const QString &line) {
        QMetaObject::invokeMethod(
            this, [this, line] { emit logLine(line); }, Qt::QueuedConnection);
    };
    // The mover reports every chunk; a few updates a second are all a person can read.
    auto timer = std::make_shared<QElapsedTimer>();
    auto last = std::make_shared<RealignProgress>();
    callbacks.progress = [this, timer, last](const RealignProgress &p) {
        const bool news = p.moveIndex != last->moveIndex || p.stepKind != last->stepKind ||
                          p.bytesDone >= p.bytesTotal || !timer->isValid() ||
                          timer->elapsed() >= 100;
        if (!news)
            return;
        timer->start();
        *last = p;
        QMetaObject::invokeMethod(
            this, [this, p] { emit progress(p); }, Qt::QueuedConnection);
    };
    callbacks.cancel = &m_cancel;
    return callbacks;
}

void RealignWorker::prepare(const QString &target, const RealignOptions &options,
                            const RealignRequest &request)
{
    RealignOptions planning = options;
    auto throttle = std::make_shared<ProgressThrottle>(100);
    planning.mapProgress = [this, throttle](int partition, const QString &, double fraction) {
        if (throttle->due(fraction >= 1.0))
            QMetaObject::invokeMethod(
                this, [this, partition, fraction] { emit mapProgress(partition, fraction); },
                Qt::QueuedConnection);
    };
    start(
        [this, target, options = planning, request] {
            const PreparedRealign result = prepareRealignment(target, options, request);
            // What holds a partition it moves first, then anything else on the disk in use: the
            // run writes the table, which preflight refuses then.
            QList<int> numbers;
            for (const PartitionMove &move : result.plan.moves)
                numbers << move.number;
            QStringList busy =
                numbers.isEmpty() ? QStringList() : busyForWrite(target, numbers, true);
            // An interrupted run of this disk must be finished before another starts.
            QString journal = options.journalPathFor(target);
            if (!result.ok || !QFile::exists(journal))
                journal.clear();
            if (!journal.isEmpty())
                busy << journal;
            return std::function<void()>([this, result, busy, journal] {
                setInterruptedJournal(journal);
                emit prepared(result, busy);
            });
        },
        "partwise-realign-plan");
}

void RealignWorker::run(const QString &target, const PreparedRealign &plan,
                        const RealignOptions &options)
{
    m_cancel.store(false);
    start(
        [this, target, plan, options, cb = callbacks()] {
            const RealignResult result = runRealignment(target, plan, options, cb);
            const DiskReadResult after = readAgain(target, options.forcedSectorSize);
            return std::function<void()>([this, result, before = plan.layout, after] {
                emit finished(result, before, after.layout, after.ok);
            });
        },
        "partwise-realign");
}

void RealignWorker::resume(const QString &target, const QString &journalPath,
                           qint64 forcedSectorSize)
{
    m_cancel.store(false);
    start(
        [this, target, journalPath, forcedSectorSize, cb = callbacks()] {
            const DiskReadResult before = readAgain(target, forcedSectorSize);
            const RealignResult result = resumeWriteJob(target, journalPath, cb);
            const DiskReadResult after = readAgain(target, forcedSectorSize);
            return std::function<void()>([this, result, before, after] {
                emit finished(result, before.layout, after.layout, after.ok);
            });
        },
        "partwise-realign-resume");
}

bool RealignWorker::loadJournal(const QString &path, WriteJournal *journal) const
{
    QString error;
    return WriteJournal::load(path, journal, &error);
}
