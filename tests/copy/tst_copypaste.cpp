// Paste of one partition into free space (`{"op":"paste"}` in a plan, `partwise-cli apply`),
// judged by independent tools: sfdisk -J for where the new partition lies, blkid for its UUID,
// each filesystem's own check and every file's SHA-256 (tests/support/partitioncontents) against
// the source partition's.

#include "blkidprobe.h"
#include "buildsetting.h"
#include "clirun.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "pastefixture.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;
using namespace pastetest;

class TestCopyPaste : public QObject, protected PasteFixture
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }

    // Both partitions pasted into the free space of their own image, the ext4 one grown.
    void withinOneImage()
    {
        PW_REQUIRE_ROOT_OR_SKIP(); // files and checks are read through loop devices
        const QString image = makeSource(QStringLiteral("within.img"), 112, 2 * kMiB);
        QVERIFY(!image.isEmpty());
        const auto before = contents(image);
        const QString plan = writePlan(
            QStringLiteral("within.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1,"
                           "\"size\":\"32MiB\"},{\"op\":\"paste\",\"source\":\"%1\",\"number\":2,"
                           "\"align\":\"mib\"}]}")
                .arg(image)
                .toUtf8());
        const CliResult r = apply(plan, image);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        const SfdiskTable table = SfdiskTable::read(image);
        QVERIFY2(table.ok, qPrintable(table.error));
        QCOMPARE(table.partitions.size(), 4);
        verifyOnGrain(table, 3, 32 * kMiB);
        verifyOnGrain(table, 4, kFatSectors * 512);
        const auto after = contents(image);
        verifySame(before, 1, after, 1);
        verifySame(before, 2, after, 2);
        verifySame(before, 1, after, 3);
        verifySame(before, 2, after, 4);
        // New filesystem ids beside the old ones; labels kept; ext4 grown to its partition.
        const BlkidInfo ext = blkidProbe(image, kExtStart * 512);
        const BlkidInfo extCopy = blkidProbe(image, table.find(3)->start * 512);
        const BlkidInfo fat = blkidProbe(image, kFatStart * 512);
        const BlkidInfo fatCopy = blkidProbe(image, table.find(4)->start * 512);
        QCOMPARE(extCopy.type, QStringLiteral("ext4"));
        QCOMPARE(extCopy.label, ext.label);
        QVERIFY(!extCopy.uuid.isEmpty() && extCopy.uuid != ext.uuid);
        QCOMPARE(fatCopy.type, QStringLiteral("vfat"));
        QCOMPARE(fatCopy.label, fat.label);
        QVERIFY(!fatCopy.uuid.isEmpty() && fatCopy.uuid != fat.uuid);
        // The GPT partition GUIDs, as sfdisk reads them.
        const auto partUuid = [&](int n) {
            return runTool(QStringLiteral("sfdisk"),
                           {QStringLiteral("--part-uuid"), image, QString::number(n)})
                .out.trimmed();
        };
        QVERIFY(!partUuid(3).isEmpty() && partUuid(3) != partUuid(1));
        const ToolResult dump =
            runTool(QStringLiteral("dumpe2fs"),
                    {QStringLiteral("-h"),
                     image + QStringLiteral("?offset=%1").arg(table.find(3)->start * 512)});
        const auto field = [&](const char *name) {
            return QRegularExpression(QLatin1String(name) + QStringLiteral(":\\s+(\\d+)"))
                .match(QString::fromUtf8(dump.out))
                .captured(1)
                .toLongLong();
        };
        QVERIFY2(field("Block count") * field("Block size") > 30 * kMiB, dump.out.constData());
    }

    // From one image onto another, and onto a loop device.
    void acrossImagesAndOntoLoop()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = makeSource(QStringLiteral("across-source.img"), 48, kMiB);
        QVERIFY(!source.isEmpty());
        const QString image = path(QStringLiteral("across-target.img"));
        const QString onLoop = path(QStringLiteral("across-loop.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(image, 64 * kMiB, "label: gpt\n", &error),
                 qPrintable(error));
        QVERIFY2(SfdiskTable::writeImage(onLoop, 64 * kMiB, "label: dos\n", &error),
                 qPrintable(error));
        const QString plan = writePlan(
            QStringLiteral("across.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1},"
                           "{\"op\":\"paste\",\"source\":\"%1\",\"number\":2}]}")
                .arg(source)
                .toUtf8());
        const QByteArray sourceSum = sha256Of(source);
        const CliResult r = apply(plan, image);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        {
            LoopDevice loop(onLoop);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            const CliResult l = apply(plan, loop.path());
            QVERIFY2(l.exitCode == 0, qPrintable(l.describe() + QString::fromUtf8(l.out)));
        }
        QCOMPARE(sha256Of(source), sourceSum); // never written
        const auto before = contents(source);
        for (const QString &target : {image, onLoop}) {
            const SfdiskTable table = SfdiskTable::read(target);
            QVERIFY2(table.ok, qPrintable(table.error));
            QCOMPARE(table.partitions.size(), 2);
            verifyOnGrain(table, 1, kExtSectors * 512);
            verifyOnGrain(table, 2, kFatSectors * 512);
            const auto after = contents(target);
            verifySame(before, 1, after, 1);
            verifySame(before, 2, after, 2);
        }
    }

    void readWriteMountedSourceRefused()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = makeSource(QStringLiteral("mounted.img"), 48, kMiB);
        QVERIFY(!source.isEmpty());
        const QString target = path(QStringLiteral("mounted-target.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(target, 64 * kMiB, "label: gpt\n", &error),
                 qPrintable(error));
        const QByteArray targetSum = sha256Of(target);
        const QString plan = writePlan(
            QStringLiteral("mounted.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1}]}")
                .arg(source)
                .toUtf8());
        LoopDevice loop(source);
        QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
        QTemporaryDir mountPoint;
        const ToolResult mounted =
            runTool(QStringLiteral("mount"), {loop.partitionNode(1), mountPoint.path()});
        QVERIFY2(mounted.ok(), qPrintable(mounted.describe()));
        const CliResult refused = apply(plan, target);
        runTool(QStringLiteral("umount"), {mountPoint.path()});
        QVERIFY(refused.exitCode != 0);
        QVERIFY2(refused.err.contains("mounted read-write"), refused.err.constData());
        QCOMPARE(sha256Of(target), targetSum);
    }

    // Killed while the data is copied, and again once it is verified (while the filesystem is
    // told its new start, given its UUID and checked): the disk then has the finished partition
    // or none, the others intact; `resume` finishes it.
    void killedAndResumed_data()
    {
        QTest::addColumn<QByteArray>("marker");
        QTest::addColumn<QString>("size"); // empty: the source's
        QTest::newRow("while copying") << QByteArray("  copying ") << QString();
        QTest::newRow("once verified") << QByteArray("  verified") << QString();
        // Smaller than its source: killed while its scratch copy shrinks, and while copying.
        QTest::newRow("shrinking") << QByteArray("  shrinking a copy") << QStringLiteral("16MiB");
        QTest::newRow("shrunk, copying") << QByteArray("  copying ") << QStringLiteral("16MiB");
    }

    void killedAndResumed()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QFETCH(QByteArray, marker);
        QFETCH(QString, size);
        // Shrunk, it holds less: 8 MiB of data fits a 16 MiB ext4.
        const QString image =
            makeSource(QStringLiteral("kill.img"), 80, size.isEmpty() ? 20 * kMiB : 8 * kMiB);
        QVERIFY(!image.isEmpty());
        const auto before = contents(image);
        const QString plan = writePlan(
            QStringLiteral("kill.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1%2}]}")
                .arg(image,
                     size.isEmpty() ? QString() : QStringLiteral(",\"size\":\"%1\"").arg(size))
                .toUtf8());
        QProcess cli;
        cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        cli.start(cliPath(),
                  {QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                   path(QStringLiteral("backups")), plan, image});
        QVERIFY(cli.waitForStarted(10000));
        QByteArray out;
        while (!out.contains(marker) && cli.state() == QProcess::Running) {
            cli.waitForReadyRead(100);
            out += cli.readAllStandardOutput();
        }
        cli.kill(); // SIGKILL
        cli.waitForFinished(30000);
        QVERIFY2(out.contains(marker), out.constData());
        const SfdiskTable half = SfdiskTable::read(image);
        QVERIFY2(half.ok, qPrintable(half.error));
        QVERIFY(half.partitions.size() == 2 || half.partitions.size() == 3);
        qInfo("killed after \"%s\": %d partitions", marker.trimmed().constData(),
              int(half.partitions.size()));
        auto now = contents(image);
        verifySame(before, 1, now, 1);
        verifySame(before, 2, now, 2);
        if (half.partitions.size() == 3)
            verifySame(before, 1, now, 3); // the entry comes only after the verified data
        const CliResult resumed = runCli({QStringLiteral("resume"), image}, 300000);
        QVERIFY2(resumed.exitCode == 0,
                 qPrintable(resumed.describe() + QString::fromUtf8(resumed.out)));
        QVERIFY(!QFile::exists(image + QStringLiteral(".partwise-move.realign")));
        QVERIFY(!QFile::exists(image + QStringLiteral(".partwise-move.realign.scratch")));
        const SfdiskTable table = SfdiskTable::read(image);
        QCOMPARE(table.partitions.size(), 3);
        verifyOnGrain(table, 3, size.isEmpty() ? kExtSectors * 512 : 16 * kMiB);
        if (!size.isEmpty())
            QCOMPARE(table.find(3)->size * 512, 16 * kMiB);
        const auto after = contents(image);
        verifySame(before, 1, after, 1);
        verifySame(before, 2, after, 2);
        verifySame(before, 1, after, 3);
    }

    void badSourceRefused_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("says");
        QTest::newRow("no such partition")
            << QStringLiteral("{\"op\":\"paste\",\"source\":\"SOURCE\",\"number\":9}")
            << QStringLiteral("no partition 9");
        QTest::newRow("no number") << QStringLiteral("{\"op\":\"paste\",\"source\":\"SOURCE\"}")
                                   << QStringLiteral("\"number\" must name the partition");
        QTest::newRow("relative path")
            << QStringLiteral("{\"op\":\"paste\",\"source\":\"disk.img\",\"number\":1}")
            << QStringLiteral("absolute path");
        QTest::newRow("missing disk")
            << QStringLiteral("{\"op\":\"paste\",\"source\":\"/nonexistent/x.img\",\"number\":1}")
            << QStringLiteral("cannot be read");
        // resize2fs -P puts the empty 16 MiB ext4 at about 2.3 MiB.
        QTest::newRow("below what its filesystem shrinks to")
            << QStringLiteral(
                   "{\"op\":\"paste\",\"source\":\"SOURCE\",\"number\":1,\"size\":\"1MiB\"}")
            << QStringLiteral("shrinks no further");
        QTest::newRow("a filesystem of its own")
            << QStringLiteral(
                   "{\"op\":\"paste\",\"source\":\"SOURCE\",\"number\":1,\"fs\":\"ext4\"}")
            << QStringLiteral("takes the source's filesystem");
    }

    // Nothing is written to the target, and the reason is said.
    void badSourceRefused()
    {
        QFETCH(QString, op);
        QFETCH(QString, says);
        static QString source;
        if (source.isEmpty()) {
            source = path(QStringLiteral("bad-source.img"));
            QString error;
            QVERIFY2(SfdiskTable::writeImage(
                         source, 32 * kMiB, "label: gpt\nstart=2048, size=32768, type=L\n", &error),
                     qPrintable(error));
            QVERIFY(
                runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-E"),
                                                      QStringLiteral("offset=%1").arg(2048 * 512),
                                                      source, QStringLiteral("16M")})
                    .ok());
        }
        const QString target = path(QStringLiteral("bad-target.img"));
        static QByteArray sum;
        if (sum.isEmpty()) {
            QString error;
            QVERIFY2(SfdiskTable::writeImage(target, 16 * kMiB, "label: gpt\n", &error),
                     qPrintable(error));
            sum = sha256Of(target);
        }
        const QString plan =
            writePlan(QStringLiteral("bad.json"),
                      (QStringLiteral("{\"operations\":[") +
                       QString(op).replace(QStringLiteral("SOURCE"), source) + QStringLiteral("]}"))
                          .toUtf8());
        const CliResult r = apply(plan, target);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QCOMPARE(sha256Of(target), sum);
    }
};

QTEST_GUILESS_MAIN(TestCopyPaste)
#include "tst_copypaste.moc"
