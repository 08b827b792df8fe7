// The core API a front end copies a disk through (ops/copyplan.h, ops/copyrunner.h): the plan it
// shows, progress while it runs, a cancel that leaves a target with no table and a journal, and
// resumeCopy() finishing it with every file there (read by independent tools).

#include "buildsetting.h"
#include "ops/copyrunner.h"

#include "clirun.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace partwise;

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
};

QTEST_GUILESS_MAIN(TestCopyApi)
#include "tst_copyapi.moc"
