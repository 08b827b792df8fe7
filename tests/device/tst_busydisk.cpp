// Nothing in use is ever written (issue 28): `partwise-cli apply` and `realign` refuse a disk
// whose whole device holds a mounted filesystem or active swap, a partition device that is
// mounted, a disk with one partition mounted while another is edited (the table write is refused:
// the kernel cannot drop a partition in use, so libparted's commit would leave it on the old
// layout), a disk another program holds exclusively, and a disk a loop device is stacked on. Each
// refusal exits non-zero, and sha256sum of the device is the same before and after. A filesystem
// on the whole disk reads as no partition table (blkid names the filesystem), not "partition 1".
//
// Filesystems are mounted read-only where the whole device's checksum is compared: a read-write
// mount writes its own log and journal in the background. The busy checks see both alike.
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace pwtest;

namespace {

// Undoes a mount or swapon however the test ends.
struct Undo
{
    QString program;
    QStringList args;
    bool armed = false;
    ~Undo()
    {
        if (armed)
            runTool(program, args);
    }
};

QByteArray sha256(const QString &device)
{
    const ToolResult r = runTool(QStringLiteral("sha256sum"), {device});
    return r.ok() ? r.out.left(64) : QByteArray("sha256sum failed: ") + r.err;
}

QString blkidType(const QString &device)
{
    return QString::fromLocal8Bit(
               runTool(QStringLiteral("blkid"),
                       {QStringLiteral("-p"), QStringLiteral("-s"), QStringLiteral("TYPE"),
                        QStringLiteral("-o"), QStringLiteral("value"), device})
                   .out)
        .trimmed();
}

} // namespace

class BusyDiskTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void mountedWholeDiskFilesystem_data();
    void mountedWholeDiskFilesystem();
    void wholeDiskFilesystemIsNoPartition();
    void wholeDiskSwap();
    void mountedPartitionDeviceAsTarget();
    void mountedPartitionWhileAnotherIsDeleted();
    void exclusiveHolderWithoutMount();
    void loopDeviceStackedOnDisk();
    void secondLoopDeviceOverTheSameFile();

private:
    QString image(const QString &name, qint64 mib);
    QString plan(const QString &name, const QByteArray &json);
    // A GPT image of two ext4 partitions (1 MiB – 33 MiB, 33 MiB – 65 MiB), by sfdisk and mkfs.
    QString twoPartitions(const QString &name);
    // Runs partwise-cli `args` on `device`: refused (non-zero exit, `says` and "nothing was
    // changed" on stderr). Callers compare sha256sum of the device around their refusals.
    void expectRefused(const QStringList &args, const QString &device, const QString &says);
    QTemporaryDir m_dir;
    QString m_mnt;
};

void BusyDiskTest::initTestCase()
{
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    m_mnt = m_dir.filePath(QStringLiteral("mnt"));
    QVERIFY(QDir().mkpath(m_mnt));
}

QString BusyDiskTest::image(const QString &name, qint64 mib)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || !f.resize(mib << 20))
        return QString();
    return path;
}

QString BusyDiskTest::plan(const QString &name, const QByteArray &json)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(json) != json.size())
        return QString();
    return path;
}

QString BusyDiskTest::twoPartitions(const QString &name)
{
    const QString img = image(name, 80);
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), img},
                "label: gpt\nstart=2048, size=65536\nstart=67584, size=65536\n");
    if (img.isEmpty() || !table.ok())
        return QString();
    for (qint64 offset : {qint64(2048) * 512, qint64(67584) * 512})
        if (!runTool(
                 QStringLiteral("mkfs.ext4"),
                 {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-E"),
                  QStringLiteral("offset=%1,lazy_itable_init=0,lazy_journal_init=0").arg(offset),
                  img, QStringLiteral("32M")})
                 .ok())
            return QString();
    return img;
}

void BusyDiskTest::expectRefused(const QStringList &args, const QString &device,
                                 const QString &says)
{
    const CliResult r =
        runCli(args + QStringList{QStringLiteral("--backup-dir"),
                                  m_dir.filePath(QStringLiteral("backups")), device});
    QVERIFY2(r.started && !r.crashed, qPrintable(r.describe()));
    QVERIFY2(r.exitCode != 0, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(says.toUtf8()),
             qPrintable(says + QStringLiteral(" not said: ") + r.describe()));
    QVERIFY2(r.err.contains("nothing was changed") || r.err.contains("Nothing was changed"),
             qPrintable(r.describe()));
}

void BusyDiskTest::mountedWholeDiskFilesystem_data()
{
    QTest::addColumn<QString>("fs");
    QTest::addColumn<qint64>("mib");
    QTest::newRow("ext4") << QStringLiteral("ext4") << qint64(64);
    QTest::newRow("xfs") << QStringLiteral("xfs") << qint64(300); // XFS's minimum size
}

void BusyDiskTest::mountedWholeDiskFilesystem()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QFETCH(QString, fs);
    QFETCH(qint64, mib);
    const QString img = image(fs + QStringLiteral(".img"), mib);
    QVERIFY(!img.isEmpty());
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const ToolResult mkfs =
        runTool(QStringLiteral("mkfs.") + fs,
                fs == QLatin1String("xfs") ? QStringList{QStringLiteral("-q"), loop.path()}
                                           : QStringList{QStringLiteral("-q"), QStringLiteral("-E"),
                                                         QStringLiteral("lazy_itable_init=0,"
                                                                        "lazy_journal_init=0"),
                                                         loop.path()});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));
    QCOMPARE(blkidType(loop.path()), fs);
    Undo unmount{QStringLiteral("umount"), {m_mnt}};
    const ToolResult mount = runTool(
        QStringLiteral("mount"), {QStringLiteral("-o"), QStringLiteral("ro"), loop.path(), m_mnt});
    QVERIFY2(mount.ok(), qPrintable(mount.describe()));
    unmount.armed = true;
    const QByteArray before = sha256(loop.path());

    const QString del =
        plan(QStringLiteral("delete1.json"), R"({"operations":[{"op":"delete","number":1}]})");
    const QString table = plan(QStringLiteral("newtable.json"),
                               R"({"operations":[{"op":"new-table","type":"gpt"}]})");
    // No partition 1: the whole disk is the filesystem.
    expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), del}, loop.path(),
                  QStringLiteral("no partition 1 to delete"));
    if (QTest::currentTestFailed())
        return;
    // A new table would replace it, but it is mounted.
    expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), table}, loop.path(),
                  QStringLiteral("is mounted on ") + m_mnt);
    if (QTest::currentTestFailed())
        return;
    expectRefused({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes")},
                  loop.path(), QStringLiteral("no partition table"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(sha256(loop.path()), before);
    QCOMPARE(blkidType(loop.path()), fs);
}

void BusyDiskTest::wholeDiskFilesystemIsNoPartition()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // mkfs.xfs on a loop device, as a person would
    const QString img = image(QStringLiteral("whole-xfs.img"), 300);
    QVERIFY(!img.isEmpty());
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(runTool(QStringLiteral("mkfs.xfs"), {QStringLiteral("-q"), loop.path()}).ok());
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json"), loop.path()});
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    const QJsonObject device = r.devices().at(0).toObject();
    QVERIFY2(device.value(QStringLiteral("table")).isNull(), qPrintable(r.describe()));
    QVERIFY(device.value(QStringLiteral("partitions")).toArray().isEmpty());
    QCOMPARE(device.value(QStringLiteral("whole_disk_filesystem")).toString(),
             blkidType(loop.path()));
    const CliResult text = runCli({QStringLiteral("check"), loop.path()});
    QVERIFY2(text.out.contains("no partition table: the whole disk holds XFS"),
             qPrintable(text.describe()));
    // Unmounted, a new table is allowed, and its plan says what it destroys (not confirmed here).
    const QString table = plan(QStringLiteral("newtable-x.json"),
                               R"({"operations":[{"op":"new-table","type":"gpt"}]})");
    const QByteArray before = sha256(loop.path());
    const CliResult asked = runCli({QStringLiteral("apply"), table, loop.path()});
    QVERIFY2(asked.out.contains("destroys the XFS filesystem"), qPrintable(asked.describe()));
    QCOMPARE(sha256(loop.path()), before);
}

void BusyDiskTest::wholeDiskSwap()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("swap.img"), 64);
    QVERIFY(!img.isEmpty());
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(runTool(QStringLiteral("mkswap"), {loop.path()}).ok());
    QCOMPARE(blkidType(loop.path()), QStringLiteral("swap"));
    Undo swapoff{QStringLiteral("swapoff"), {loop.path()}};
    const ToolResult on = runTool(QStringLiteral("swapon"), {loop.path()});
    QVERIFY2(on.ok(), qPrintable(on.describe()));
    swapoff.armed = true;
    const QString table = plan(QStringLiteral("newtable-s.json"),
                               R"({"operations":[{"op":"new-table","type":"msdos"}]})");
    // The kernel writes to active swap whenever it likes; here nothing is swapped out, so the
    // device's bytes stay put unless something else writes them.
    const QByteArray before = sha256(loop.path());
    expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), table}, loop.path(),
                  QStringLiteral("is in use as swap"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(sha256(loop.path()), before);
}

void BusyDiskTest::mountedPartitionDeviceAsTarget()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = twoPartitions(QStringLiteral("partdev.img"));
    QVERIFY(!img.isEmpty());
    LoopDevice loop(img);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    const QString part = loop.partitionNode(1);
    Undo unmount{QStringLiteral("umount"), {m_mnt}};
    const ToolResult mount =
        runTool(QStringLiteral("mount"), {QStringLiteral("-o"), QStringLiteral("ro"), part, m_mnt});
    QVERIFY2(mount.ok(), qPrintable(mount.describe()));
    unmount.armed = true;
    const QByteArray disk = sha256(loop.path());
    const QString table = plan(QStringLiteral("newtable-p.json"),
                               R"({"operations":[{"op":"new-table","type":"gpt"}]})");
    expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), table}, part,
                  part + QStringLiteral(" is mounted on ") + m_mnt);
    if (QTest::currentTestFailed())
        return;
    expectRefused({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes")},
                  part, QStringLiteral("nothing was changed"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(sha256(loop.path()), disk);
}

void BusyDiskTest::mountedPartitionWhileAnotherIsDeleted()
{
    // Deleting partition 2 would not touch partition 1's bytes, and libparted's commit would
    // leave the busy partition to the kernel as it is (BLKPG cannot drop it); but Partwise never
    // writes the table of a disk with anything on it in use.
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = twoPartitions(QStringLiteral("other.img"));
    QVERIFY(!img.isEmpty());
    LoopDevice loop(img);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    const ToolResult dumpBefore =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-d"), loop.path()});
    QVERIFY(dumpBefore.ok());
    Undo unmount{QStringLiteral("umount"), {m_mnt}};
    const ToolResult mount =
        runTool(QStringLiteral("mount"),
                {QStringLiteral("-o"), QStringLiteral("ro"), loop.partitionNode(1), m_mnt});
    QVERIFY2(mount.ok(), qPrintable(mount.describe()));
    unmount.armed = true;
    const QByteArray before = sha256(loop.path());
    const QString del =
        plan(QStringLiteral("delete2.json"), R"({"operations":[{"op":"delete","number":2}]})");
    expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), del}, loop.path(),
                  loop.partitionNode(1) + QStringLiteral(" is mounted on ") + m_mnt);
    if (QTest::currentTestFailed())
        return;
    // Through the image file too: the loop device showing it has a partition mounted.
    const CliResult viaImage = runCli({QStringLiteral("apply"), QStringLiteral("--yes"), del, img});
    QVERIFY2(viaImage.exitCode != 0 && viaImage.err.contains("is mounted on"),
             qPrintable(viaImage.describe()));
    QCOMPARE(sha256(loop.path()), before);
    const ToolResult dumpAfter =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-d"), loop.path()});
    QCOMPARE(dumpAfter.out, dumpBefore.out);
}

void BusyDiskTest::exclusiveHolderWithoutMount()
{
    // No mount, swap or holder names it: only the kernel knows another program has it.
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = twoPartitions(QStringLiteral("claimed.img"));
    QVERIFY(!img.isEmpty());
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const int fd = ::open(QFile::encodeName(loop.path()).constData(), O_RDONLY | O_EXCL);
    QVERIFY(fd >= 0);
    const QByteArray before = sha256(loop.path());
    const QString del =
        plan(QStringLiteral("delete2c.json"), R"({"operations":[{"op":"delete","number":2}]})");
    expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), del}, loop.path(),
                  QStringLiteral("open it exclusively"));
    if (QTest::currentTestFailed())
        return;
    ::close(fd);
    QCOMPARE(sha256(loop.path()), before);
}

void BusyDiskTest::loopDeviceStackedOnDisk()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = twoPartitions(QStringLiteral("stacked.img"));
    QVERIFY(!img.isEmpty());
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    LoopDevice stacked(loop.path()); // a loop device whose backing file is the disk itself
    QVERIFY2(stacked.ok(), qPrintable(stacked.error()));
    const QByteArray before = sha256(loop.path());
    const QString del =
        plan(QStringLiteral("delete2l.json"), R"({"operations":[{"op":"delete","number":2}]})");
    expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), del}, loop.path(),
                  QStringLiteral("backing device of loop device ") + stacked.path());
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(sha256(loop.path()), before);
}

// The same image attached twice: a partition of the first is mounted, and a table written
// through the second would replace the table under that mount. Refused, the file unchanged.
void BusyDiskTest::secondLoopDeviceOverTheSameFile()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = twoPartitions(QStringLiteral("twice.img"));
    QVERIFY(!img.isEmpty());
    LoopDevice first(img);
    QVERIFY2(first.ok() && first.addPartitions(), qPrintable(first.error()));
    LoopDevice second(img);
    QVERIFY2(second.ok(), qPrintable(second.error()));
    Undo unmount{QStringLiteral("umount"), {m_mnt}};
    const ToolResult mount =
        runTool(QStringLiteral("mount"),
                {QStringLiteral("-o"), QStringLiteral("ro"), first.partitionNode(1), m_mnt});
    QVERIFY2(mount.ok(), qPrintable(mount.describe()));
    unmount.armed = true;
    const QByteArray before = sha256(img);
    const QString table = plan(QStringLiteral("newtable-twice.json"),
                               R"({"operations":[{"op":"new-table","type":"msdos"}]})");
    expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), table}, second.path(),
                  first.partitionNode(1) + QStringLiteral(" is mounted on ") + m_mnt);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(sha256(img), before);
}

QTEST_GUILESS_MAIN(BusyDiskTest)
#include "tst_busydisk.moc"
