// Disks that come and go, as `partwise-cli watch` (the window's disk monitor) reports them, on
// this machine's kernel (root, loop devices): a loop device bound to a file is "added" with the
// size the kernel gives it, its partitions added by partx make it "changed", and once let go it
// is "removed". What the kernel says is read independently: lsblk -J and sysfs. Drives plugged
// and unplugged (SCSI delete and rescan) are in the guest (tests/guest/tst_guestdesktop).
#include "diskimagebuilder.h"
#include "loopdevice.h"
#include "toolrun.h"
#include "watchprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

// lsblk's entry of `device` (its "blockdevices" array has one), bytes as numbers.
QJsonObject lsblkOf(const QString &device)
{
    const ToolResult r = runTool(QStringLiteral("lsblk"),
                                 {QStringLiteral("-J"), QStringLiteral("-b"), QStringLiteral("-o"),
                                  QStringLiteral("PATH,SIZE,TYPE"), device});
    if (!r.ok())
        return {};
    return QJsonDocument::fromJson(r.out)
        .object()
        .value(QStringLiteral("blockdevices"))
        .toArray()
        .first()
        .toObject();
}

qint64 sysfsSectors(const QString &device)
{
    QFile f(QStringLiteral("/sys/block/%1/size").arg(device.section(u'/', -1)));
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toLongLong() : -1;
}

} // namespace

class TestDiskWatch : public QObject
{
    Q_OBJECT

private slots:
    void loopDeviceComesChangesAndGoes()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        DiskImageBuilder builder(dir.path());
        QString error;
        const QString image = builder.createSparse(QStringLiteral("plug.img"), 48 << 20, &error);
        QVERIFY2(!image.isEmpty(), qPrintable(error));
        QVERIFY2(DiskImageBuilder::sfdisk(
                     image, QStringLiteral("label: gpt\nstart=2048, size=20480\n"), &error),
                 qPrintable(error));

        WatchProcess watch;
        QVERIFY2(watch.ok(), qPrintable(watch.error()));
        QString loopPath;
        {
            LoopDevice loop(image);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            loopPath = loop.path();
            QVERIFY2(!watch.listening()
                          .value(QStringLiteral("disks"))
                          .toArray()
                          .contains(QJsonValue(loopPath)),
                     "the loop device was listed before it was bound");

            const QJsonObject added = watch.waitFor(watchEvent(QStringLiteral("added"), loopPath));
            QVERIFY2(!added.isEmpty(), qPrintable(watch.transcript()));
            const QJsonObject lsblk = lsblkOf(loopPath);
            QCOMPARE(lsblk.value(QStringLiteral("type")).toString(), QStringLiteral("loop"));
            QCOMPARE(qint64(added.value(QStringLiteral("size_bytes")).toDouble()),
                     lsblk.value(QStringLiteral("size")).toInteger());
            QCOMPARE(qint64(added.value(QStringLiteral("size_bytes")).toDouble()),
                     qint64(48 << 20));

            // partx tells the kernel of the table: the disk has changed, naming the partition.
            QVERIFY(loop.addPartitions());
            const QJsonObject changed =
                watch.waitFor(watchEvent(QStringLiteral("changed"), loopPath));
            QVERIFY2(!changed.isEmpty(), qPrintable(watch.transcript()));
            QVERIFY2(changed.value(QStringLiteral("reason"))
                         .toString()
                         .contains(loop.partitionNode(1).section(u'/', -1)),
                     qPrintable(watch.transcript()));
            QVERIFY(QFile::exists(loop.partitionNode(1)));
        } // partx -d, losetup -d
        const QJsonObject removed = watch.waitFor(watchEvent(QStringLiteral("removed"), loopPath));
        QVERIFY2(!removed.isEmpty(), qPrintable(watch.transcript()));
        QCOMPARE(sysfsSectors(loopPath), qint64(0)); // the kernel's word: nothing bound
        // Each event once: one added, one removed for this device.
        int adds = 0, removes = 0;
        for (const QJsonObject &line : watch.lines()) {
            if (line.value(QStringLiteral("path")).toString() != loopPath)
                continue;
            adds += line.value(QStringLiteral("event")).toString() == QLatin1String("added");
            removes += line.value(QStringLiteral("event")).toString() == QLatin1String("removed");
        }
        QCOMPARE(adds, 1);
        QCOMPARE(removes, 1);
    }

    void watchEndsWithItsInputAndRefusesBadBounds()
    {
        // Bad input: a clear error, exit 2.
        for (const QString &bad : {QStringLiteral("0"), QStringLiteral("86401"),
                                   QStringLiteral("-5"), QStringLiteral("ten")}) {
            const ToolResult r =
                runTool(qEnvironmentVariable("PARTWISE_CLI"),
                        {QStringLiteral("watch"), QStringLiteral("--seconds"), bad});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--seconds"), r.err.constData());
        }
        const ToolResult source =
            runTool(qEnvironmentVariable("PARTWISE_CLI"),
                    {QStringLiteral("watch"), QStringLiteral("--source"), QStringLiteral("dbus")});
        QCOMPARE(source.exitCode, 2);
        // Input that ends (empty stdin) ends it long before its hour is up (runTool's minute).
        const ToolResult ended = runTool(qEnvironmentVariable("PARTWISE_CLI"),
                                         {QStringLiteral("watch"), QStringLiteral("--json"),
                                          QStringLiteral("--seconds"), QStringLiteral("3600")},
                                         QByteArray(), 60000);
        QVERIFY2(ended.ok(), qPrintable(ended.describe()));
        const QJsonObject first = QJsonDocument::fromJson(ended.out.split('\n').first()).object();
        QCOMPARE(first.value(QStringLiteral("event")).toString(), QStringLiteral("listening"));
    }
};

QTEST_GUILESS_MAIN(TestDiskWatch)
#include "tst_diskwatch.moc"
