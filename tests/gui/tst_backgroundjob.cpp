// BackgroundJob, the GUI's one way to run blocking work: jobs run off the GUI thread one at a
// time, in the order they were queued; each result is delivered on the GUI thread before the
// next job starts; and destroying it drops what is queued but waits for the job under way.
#include "backgroundjob.h"

#include <QCoreApplication>
#include <QMutex>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

namespace {

// A job that records where it ran and what ran beside it, then hands back a delivery that
// records the order of deliveries.
struct Log
{
    QMutex mutex;
    QStringList ran;
    QStringList delivered;
    std::atomic<int> running{0};
    std::atomic<int> mostAtOnce{0};
    std::atomic<bool> ranOnGuiThread{false};
    std::atomic<bool> deliveredOffGuiThread{false};
};

BackgroundJob::Job recordingJob(const std::shared_ptr<Log> &log, const QString &name,
                                unsigned long sleepMs = 20)
{
    return [log, name, sleepMs]() -> std::function<void()> {
        const int now = ++log->running;
        log->mostAtOnce = std::max(log->mostAtOnce.load(), now);
        if (QThread::currentThread() == qApp->thread())
            log->ranOnGuiThread = true;
        QThread::msleep(sleepMs);
        {
            QMutexLocker lock(&log->mutex);
            log->ran << name;
        }
        --log->running;
        return [log, name] {
            if (QThread::currentThread() != qApp->thread())
                log->deliveredOffGuiThread = true;
            log->delivered << name;
        };
    };
}

} // namespace

class TestBackgroundJob : public QObject
{
    Q_OBJECT

private slots:
    void queuedJobsRunInOrderOneAtATime();
    void startRefusesWhileBusy();
    void deliveryMayStartTheNextJob();
    void destructionDropsQueuedJobsAndWaits();
};

void TestBackgroundJob::queuedJobsRunInOrderOneAtATime()
{
    auto log = std::make_shared<Log>();
    BackgroundJob job;
    const QStringList names{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    for (const QString &name : names)
        job.enqueue(recordingJob(log, name), QStringLiteral("test-") + name);
    QVERIFY(job.isBusy());
    QVERIFY(QTest::qWaitFor([&] { return log->delivered.size() == names.size(); }, 10000));
    QVERIFY(!job.isBusy());
    QCOMPARE(log->ran, names);
    QCOMPARE(log->delivered, names);
    QCOMPARE(log->mostAtOnce.load(), 1);
    QVERIFY(!log->ranOnGuiThread);
    QVERIFY(!log->deliveredOffGuiThread);
}

void TestBackgroundJob::startRefusesWhileBusy()
{
    auto log = std::make_shared<Log>();
    BackgroundJob job;
    QVERIFY(job.start(recordingJob(log, QStringLiteral("first")), QStringLiteral("test")));
    QVERIFY(!job.start(recordingJob(log, QStringLiteral("second")), QStringLiteral("test")));
    QVERIFY(QTest::qWaitFor([&] { return !log->delivered.isEmpty(); }, 10000));
    QCOMPARE(log->ran, QStringList{QStringLiteral("first")});
    QVERIFY(job.start(recordingJob(log, QStringLiteral("third")), QStringLiteral("test")));
    QVERIFY(QTest::qWaitFor([&] { return log->delivered.size() == 2; }, 10000));
    QCOMPARE(log->delivered, (QStringList{QStringLiteral("first"), QStringLiteral("third")}));
}

void TestBackgroundJob::deliveryMayStartTheNextJob()
{
    // A slot that starts a job from a delivery (the realign wizard plans again this way) runs
    // before what was queued behind the delivered job.
    auto log = std::make_shared<Log>();
    BackgroundJob job;
    job.enqueue(
        [&job, log]() -> std::function<void()> {
            return [&job, log] {
                log->delivered << QStringLiteral("first");
                job.start(recordingJob(log, QStringLiteral("started")), QStringLiteral("test"));
            };
        },
        QStringLiteral("test"));
    job.enqueue(recordingJob(log, QStringLiteral("queued")), QStringLiteral("test"));
    QVERIFY(QTest::qWaitFor([&] { return log->delivered.size() == 3; }, 10000));
    QCOMPARE(log->delivered, (QStringList{QStringLiteral("first"), QStringLiteral("started"),
                                          QStringLiteral("queued")}));
    QCOMPARE(log->mostAtOnce.load(), 1);
}

void TestBackgroundJob::destructionDropsQueuedJobsAndWaits()
{
    auto log = std::make_shared<Log>();
    {
        BackgroundJob job;
        job.enqueue(recordingJob(log, QStringLiteral("running"), 200), QStringLiteral("test"));
        job.enqueue(recordingJob(log, QStringLiteral("dropped")), QStringLiteral("test"));
        QVERIFY(QTest::qWaitFor([&] { return log->running.load() == 1; }, 10000));
    } // waits for "running"; "dropped" never starts
    QCOMPARE(log->ran, QStringList{QStringLiteral("running")});
    QCOMPARE(log->running.load(), 0);
    QCoreApplication::processEvents();
    QVERIFY(log->delivered.isEmpty()); // its result had nowhere to go
}

QTEST_GUILESS_MAIN(TestBackgroundJob)
#include "tst_backgroundjob.moc"
