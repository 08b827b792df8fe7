// A realignment's first move takes the used-block map its plan read, while the disk is held
// unchanged since (device/sourcehold.h, PlannedMaps); a disk written between the plan and the
// move is mapped again, so what was written then moves with the rest. The writer (debugfs -w)
// claims nothing: an image is seen written by its times, a loop device by its backing file's,
// and a disk by the kernel's count of its writes (a loop device over a loop device).

#include "loopdevice.h"
#include "loopstack.h"
#include "ops/realignrunner.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>


using namespace partwise;

class TestRealignPlannedMap : public QObject
{
    Q_OBJECT

private slots:
    void firstMoveUsesThePlansMapUnlessWritten_data()
    {
        QTest::addColumn<int>("loops");
        QTest::addColumn<bool>("writeAfterPlan");
        QTest::newRow("image, unchanged") << 0 << false;
        QTest::newRow("image, written") << 0 << true;
        QTest::newRow("loop device, unchanged") << 1 << false;
        QTest::newRow("loop device, written") << 1 << true;
        QTest::newRow("disk, written") << 2 << true;
    }

    void firstMoveUsesThePlansMapUnlessWritten()
    {
        QFETCH(int, loops);
        QFETCH(bool, writeAfterPlan);
        PW_REQUIRE_ROOT_OR_SKIP(); // the files are read through loop devices
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString image = dir.filePath(QStringLiteral("old.img"));
        // Partition 1: a 64 MiB ext4 at sector 63 with files, free space after it.
        const QString tree = dir.filePath(QStringLiteral("tree"));
        QVERIFY(QDir().mkpath(tree));
        for (int i = 0; i < 8; ++i) {
            QFile f(QStringLiteral("%1/file%2.bin").arg(tree).arg(i));
            QByteArray bytes((i + 1) << 18, Qt::Uninitialized);
            QRandomGenerator(i).fillRange(reinterpret_cast<quint32 *>(bytes.data()),
                                          bytes.size() / 4);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
        }
        QString error;
        QVERIFY2(pwtest::SfdiskTable::writeImage(
                     image, 96 << 20, "label: dos\nstart=63, size=131072, type=83\n", &error),
                 qPrintable(error));
        QVERIFY(pwtest::runTool(QStringLiteral("mkfs.ext4"),
                                {QStringLiteral("-q"), QStringLiteral("-E"),
                                 QStringLiteral("offset=%1").arg(63 * 512), QStringLiteral("-d"),
                                 tree, image, QStringLiteral("65536k")})
                    .ok());
        QThread::msleep(2100); // an image written in the last two seconds is not held

        const pwtest::LoopStack stack(image, loops);
        QVERIFY2(stack.ok(), qPrintable(stack.error()));
        const QString target = stack.path();
        RealignOptions options;
        options.backupRoot = dir.filePath(QStringLiteral("backups"));
        options.journalFolder = dir.path();
        RealignRequest request;
        request.partitions = {1};
        const PreparedRealign prepared = prepareRealignment(target, options, request);
        QVERIFY2(prepared.ok, qPrintable(prepared.error));
        QCOMPARE(prepared.plan.moves.size(), 1);
        QVERIFY(prepared.planned.hold);
        QVERIFY(prepared.planned.maps.contains(1));

        if (writeAfterPlan) {
            QByteArray data(3 << 20, Qt::Uninitialized);
            QRandomGenerator(33).fillRange(reinterpret_cast<quint32 *>(data.data()),
                                           data.size() / 4);
            const pwtest::ToolResult written = pwtest::writeExtFileUnclaimed(
                target, 63 * 512, QStringLiteral("late.bin"), data, dir.path());
            QVERIFY2(written.ok(), qPrintable(written.describe()));
        }
        QStringList problems;
        const auto before =
            pwtest::partitionContents(image, 512, pwtest::SfdiskTable::read(image), &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(before.value(1).files.contains(QStringLiteral("late.bin")), writeAfterPlan);

        QStringList log;
        RealignCallbacks callbacks;
        callbacks.log = [&log](const QString &line) { log << line; };
        const RealignResult result = runRealignment(target, prepared, options, callbacks);
        QVERIFY2(result.ok, qPrintable(result.error + QLatin1Char('\n') + log.join('\n')));
        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(image);
        QVERIFY(table.ok && !table.partitions.isEmpty());
        QCOMPARE(table.partitions[0].start % 2048, 0);
        const auto after = pwtest::partitionContents(image, 512, table, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        const QStringList diff = pwtest::contentsDiffer(before, after);
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
        // Checked last: a map taken from the plan after a write shows above as a lost file.
        const bool reused =
            log.join(QLatin1Char('\n')).contains(QLatin1String("read for the plan"));
        QCOMPARE(reused, !writeAfterPlan);
    }
};

QTEST_GUILESS_MAIN(TestRealignPlannedMap)
#include "tst_realignplannedmap.moc"
