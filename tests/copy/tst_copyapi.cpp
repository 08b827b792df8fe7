// The core API a front end copies a disk through (ops/copyplan.h, ops/copyrunner.h): the plan it
// shows, progress while it runs, a cancel that leaves a target with no table and a journal, and
// resumeCopy() finishing it with every file there (read by independent tools). The maps the
// plan read are the copy's only while the source is held unchanged (device/sourcehold.h): a
// held disk cannot be mounted, and a file written into an image after the plan is still copied.

#include "buildsetting.h"
#include "ops/copyrunner.h"

#include "clirun.h"
#include "loopdevice.h"
#include "loopstack.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <QRandomGenerator>
#include <QThread>

#include <atomic>
#include <memory>

using namespace partwise;

namespace {

// An old-fdisk practice disk (ext4 at sector 63, logical ext4 and swap) and an empty, larger
// target beside it.
bool makeDisks(const QTemporaryDir &dir, QString *source, QString *target)
{
    pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    *source = dir.filePath(QStringLiteral("old.img"));
    *target = dir.filePath(QStringLiteral("new.img"));
    if (pwtest::runCli({QStringLiteral("practice"), QStringLiteral("--size"),
                        QStringLiteral("256m"), QStringLiteral("old-fdisk"), *source})
            .exitCode != 0)
        return false;
    QFile t(*target);
    if (!t.open(QIODevice::WriteOnly) || !t.resize(320 << 20))
        return false;
    // An image written in the last two seconds is not held (device/sourcehold.h).
    QThread::msleep(2100);
    return true;
}

CopyOptions optionsIn(const QTemporaryDir &dir)
{
    CopyOptions options;
    options.backupRoot = dir.filePath(QStringLiteral("backups"));
    return options;
}

} // namespace

class TestCopyApi : public QObject
{
    Q_OBJECT

private slots:
    void cancelledThenResumed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
        const QString source = dir.filePath(QStringLiteral("old.img"));
        const QString target = dir.filePath(QStringLiteral("new.img"));
        QVERIFY(pwtest::runCli({QStringLiteral("practice"), QStringLiteral("--size"),
                                QStringLiteral("256m"), QStringLiteral("old-fdisk"), source})
                    .exitCode == 0);
        QFile t(target);
        QVERIFY(t.open(QIODevice::WriteOnly) && t.resize(320 << 20));
        t.close();

        CopyOptions options;
        options.backupRoot = dir.filePath(QStringLiteral("backups"));
        options.growth = CopyGrowth::GrowLast;
        const PreparedCopy prepared = prepareCopy(source, target, options);
        QVERIFY2(prepared.ok, qPrintable(prepared.error));
        QVERIFY2(prepared.plan.ok(), qPrintable(prepared.plan.refused.join(QLatin1Char(' '))));
        QCOMPARE(prepared.plan.partitions.size(), 4); // 1, the extended 2, logicals 5 and 6
        for (const CopyPartitionPlan &p : prepared.plan.partitions)
            QCOMPARE(p.newStart % 2048, 0);
        QVERIFY(prepared.plan.bytesToCopy > 0);
        QVERIFY(!copyPlanText(prepared.plan).isEmpty());

        // Cancelled at its first progress report: a journal, no table on the target.
        std::atomic<bool> cancel{false};
        int reports = 0;
        CopyCallbacks callbacks;
        callbacks.cancel = &cancel;
        callbacks.progress = [&](const CopyProgress &p) {
            ++reports;
            QVERIFY(p.bytesTotal > 0);
            cancel = true;
        };
        const CopyResult stopped = runCopy(prepared, options, callbacks);
        QVERIFY(!stopped.ok);
        QVERIFY2(stopped.resumable, qPrintable(stopped.error));
        QVERIFY(reports > 0);
        QVERIFY(copyJournalExists(target));
        QVERIFY(!pwtest::SfdiskTable::read(target).ok);

        // The resumed run's progress counts the bytes copied before the cancel too, and never
        // passes its total (the window's bar and the CLI's line show these numbers).
        CopyProgress last;
        int overTotal = 0;
        CopyCallbacks resumed;
        resumed.progress = [&](const CopyProgress &p) {
            if (p.bytesDone > p.bytesTotal)
                ++overTotal;
            last = p;
        };
        const CopyResult finished = resumeCopy(target, QString(), resumed);
        QVERIFY2(finished.ok, qPrintable(finished.error));
        QCOMPARE(overTotal, 0);
        QVERIFY(last.bytesTotal > 0);
        QCOMPARE(last.bytesDone, last.bytesTotal);
        QVERIFY(!copyJournalExists(target));
        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(target);
        QVERIFY2(table.ok, qPrintable(table.error));
        for (const pwtest::SfdiskPartition &p : table.partitions)
            QCOMPARE(p.start % 2048, 0);
        QVERIFY(table.partitions.last().end() > (318LL << 20) / 512); // grown to the end

        PW_REQUIRE_ROOT_OR_SKIP(); // the files are read through loop devices
        QStringList problems;
        const auto before =
            pwtest::partitionContents(source, 512, pwtest::SfdiskTable::read(source), &problems);
        const auto after = pwtest::partitionContents(target, 512, table, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        const QStringList diff = pwtest::contentsDiffer(before, after);
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    }

    // A file written into the source between the plan and the copy lands in blocks that were
    // free when the plan read the map: copied with the plan's map, its data would be missing on
    // the target. The writer (debugfs -w) does not claim the disk, which an exclusive claim
    // cannot stop: an image is seen written by its times, a loop device by its backing file's,
    // and a disk by the kernel's count of its writes (a loop device over a loop device, whose
    // backing device node keeps its times).
    void writtenAfterThePlanIsMappedAgain_data()
    {
        QTest::addColumn<int>("loops");
        QTest::newRow("image") << 0;
        QTest::newRow("loop device") << 1;
        QTest::newRow("disk") << 2;
    }

    void writtenAfterThePlanIsMappedAgain()
    {
        QFETCH(int, loops);
        PW_REQUIRE_ROOT_OR_SKIP(); // the files are read through loop devices
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString image, target;
        QVERIFY(makeDisks(dir, &image, &target));
        const pwtest::LoopStack stack(image, loops);
        QVERIFY2(stack.ok(), qPrintable(stack.error()));
        const QString source = stack.path();
        const CopyOptions options = optionsIn(dir);
        const PreparedCopy prepared = prepareCopy(source, target, options);
        QVERIFY2(prepared.plan.ok(), qPrintable(prepared.plan.refused.join(QLatin1Char(' '))));
        QVERIFY(prepared.sourceHold);

        QByteArray data(3 << 20, Qt::Uninitialized);
        QRandomGenerator(33).fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
        const pwtest::ToolResult written = pwtest::writeExtFileUnclaimed(
            source, 63 * 512, QStringLiteral("late.bin"), data, dir.path());
        QVERIFY2(written.ok(), qPrintable(written.describe()));

        const CopyResult copied = runCopy(prepared, options, CopyCallbacks());
        QVERIFY2(copied.ok, qPrintable(copied.error));
        QStringList problems;
        const auto before =
            pwtest::partitionContents(image, 512, pwtest::SfdiskTable::read(image), &problems);
        const auto after =
            pwtest::partitionContents(target, 512, pwtest::SfdiskTable::read(target), &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(before.value(1).files.contains(QStringLiteral("late.bin")));
        const QStringList diff = pwtest::contentsDiffer(before, after);
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    }

    // A disk is claimed from the plan to the end of the copy: nothing on it can be mounted
    // in between, so the maps stay true.
    void heldDiskCannotBeMountedUntilTheCopyEnds()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString source, target;
        QVERIFY(makeDisks(dir, &source, &target));
        pwtest::LoopDevice loop(source);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QVERIFY(loop.addPartitions());
        const QString mountPoint = dir.filePath(QStringLiteral("mnt"));
        QVERIFY(QDir().mkpath(mountPoint));
        const QStringList mount = {QStringLiteral("-o"), QStringLiteral("ro"),
                                   loop.partitionNode(1), mountPoint};
        {
            const PreparedCopy prepared = prepareCopy(loop.path(), target, optionsIn(dir));
            QVERIFY2(prepared.plan.ok(), qPrintable(prepared.plan.refused.join(QLatin1Char(' '))));
            const pwtest::ToolResult held = pwtest::runTool(QStringLiteral("mount"), mount);
            if (held.ok())
                pwtest::runTool(QStringLiteral("umount"), {mountPoint});
            QVERIFY2(!held.ok(), "a partition of the held disk was mounted");
        }
        const pwtest::ToolResult released = pwtest::runTool(QStringLiteral("mount"), mount);
        QVERIFY2(released.ok(), qPrintable(released.describe()));
        QVERIFY(pwtest::runTool(QStringLiteral("umount"), {mountPoint}).ok());
    }
};

QTEST_GUILESS_MAIN(TestCopyApi)
#include "tst_copyapi.moc"
