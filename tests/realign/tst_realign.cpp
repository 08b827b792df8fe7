// Realignment end to end, as root: legacy layouts (MBR at 63, GPT at 34, logical partitions in
// an extended one, chains of adjacent partitions) holding ext4, xfs, btrfs, vfat, ntfs and swap
// filled with real files are realigned by `partwise-cli realign`, on the image and on a loop
// device, also killed with SIGKILL at random instants and finished by `partwise-cli resume`.
// Every verdict comes from independent tools: sfdisk/sgdisk, blkid, each filesystem's fsck,
// and the SHA-256 of every file read back through mount, mtools or ntfs-3g.
#include "blkidprobe.h"
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "realignfixtures.h"
#include "sfdisktable.h"
#include "templateshelf.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace pwtest;

class TestRealign : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void realignImage_data();
    void realignImage();
    void realignLoopDevice_data();
    void realignLoopDevice();
    void killAndResume_data();
    void killAndResume();
    void realign4knLoopDevice();
    void readOnlyLoopRefused();
    void mountedPartitionRefused();

private:
    QString freshCopy(const QString &layout, const QString &name)
    {
        return m_shelf->freshCopy(layout, name);
    }
    QStringList verifyImage(const Template &t, const QString &image)
    {
        return m_shelf->verify(t, image);
    }
    QStringList runToCompletion(const QString &target, const QString &journal, bool killResume,
                                QRandomGenerator &rng, qint64 budgetMs);

    QTemporaryDir m_dir;
    QString m_source;
    QMap<QString, QByteArray> m_expected;
    std::unique_ptr<TemplateShelf> m_shelf;
    QMap<QString, qint64> m_durationMs; // uninterrupted realign time per layout
    quint32 m_seed = 0;
};

void TestRealign::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    m_seed = qEnvironmentVariableIsSet("PW_REALIGN_SEED")
                 ? quint32(qEnvironmentVariableIntValue("PW_REALIGN_SEED"))
                 : QRandomGenerator::system()->generate();
    qInfo("kill instants: seed %u (rerun with PW_REALIGN_SEED=%u)", m_seed, m_seed);

    QString error;
    m_source = m_dir.filePath(QStringLiteral("source"));
    QVERIFY2(makeFileTree(m_source, 400, 24 << 20, 5, &error), qPrintable(error));
    m_expected = treeSha256(m_source, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(m_expected.size(), 401);
    m_shelf = std::make_unique<TemplateShelf>(m_dir.path(), m_source, m_expected);
    for (const Layout &l :
         {mbrLegacy(), gptLegacy(), mbrDown(), gptShrink(), gptDownChain(), mbrExtendedMoves()})
        QVERIFY2(m_shelf->build(l, &error), qPrintable(l.name + QStringLiteral(": ") + error));
}

void TestRealign::cleanup()
{
    forgetBtrfsDevices();
}

void TestRealign::realignImage_data()
{
    QTest::addColumn<QString>("layout");
    QTest::newRow("mbr-legacy") << QStringLiteral("mbr-legacy");
    QTest::newRow("gpt-legacy") << QStringLiteral("gpt-legacy");
    QTest::newRow("mbr-down") << QStringLiteral("mbr-down");
    QTest::newRow("gpt-shrink") << QStringLiteral("gpt-shrink");
    QTest::newRow("gpt-down-chain") << QStringLiteral("gpt-down-chain");
}

void TestRealign::realignImage()
{
    QFETCH(QString, layout);
    const QString image = freshCopy(layout, layout + QStringLiteral("-image"));
    QVERIFY(!image.isEmpty());

    const CliResult dry = runCli({QStringLiteral("realign"), QStringLiteral("--dry-run"), image});
    QVERIFY2(dry.exitCode == 0, qPrintable(dry.describe()));
    QCOMPARE(fileSha256(image), fileSha256((*m_shelf)[layout].path));

    QElapsedTimer timer;
    timer.start();
    const CliResult r = runCli({QStringLiteral("realign"), QStringLiteral("--yes"),
                                QStringLiteral("--backup-dir"), m_dir.filePath("backups"), image},
                               300000);
    m_durationMs.insert(layout, timer.elapsed());
    qInfo("%s: realigned in %lld ms", qPrintable(layout), timer.elapsed());
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
    QVERIFY(!QFile::exists(journalOf(image)));
    const QStringList problems = verifyImage((*m_shelf)[layout], image);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QFile::remove(image);
}

void TestRealign::realignLoopDevice_data()
{
    realignImage_data();
}

void TestRealign::realignLoopDevice()
{
    QFETCH(QString, layout);
    const QString image = freshCopy(layout, layout + QStringLiteral("-loop"));
    QVERIFY(!image.isEmpty());
    {
        LoopDevice loop(image);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QVERIFY2(loop.addPartitions(), qPrintable(loop.error()));
        // The default journal of a block device lives in the state folder.
        QString journal = QStringLiteral("/var/lib/partwise/moves/%1.partwise-move.realign")
                              .arg(QFileInfo(loop.path()).fileName());
        QStringList args{QStringLiteral("realign"), QStringLiteral("--yes"),
                         QStringLiteral("--backup-dir"), m_dir.filePath("backups"), loop.path()};
        if (QFile::exists(journal)) {
            // Left by something else that used this loop device's name; not ours to judge.
            qWarning("%s is in the way; using a journal of our own", qPrintable(journal));
            journal = m_dir.filePath(layout + QStringLiteral("-loop.journal"));
            args.insert(1, journal);
            args.insert(1, QStringLiteral("--journal"));
        }
        const CliResult r = runCli(args, 300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        QVERIFY(!QFile::exists(journal));
        // The kernel was told: every partition node starts where the table now says.
        const SfdiskTable table = SfdiskTable::read(loop.path());
        QVERIFY2(table.ok, qPrintable(table.error));
        for (const SfdiskPartition &p : table.partitions)
            QCOMPARE(sysfsStart(loop.path(), p.number), QString::number(p.start));
        const ToolResult valid =
            runTool(QStringLiteral("sfdisk"), {QStringLiteral("-V"), loop.path()});
        QVERIFY2(valid.ok(), qPrintable(valid.describe() + QString::fromUtf8(valid.out)));
    }
    const QStringList problems = verifyImage((*m_shelf)[layout], image);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QFile::remove(image);
}

QStringList TestRealign::runToCompletion(const QString &target, const QString &journal,
                                         bool killResume, QRandomGenerator &rng, qint64 budgetMs)
{
    QStringList problems;
    const QString backups = m_dir.filePath(QStringLiteral("backups"));
    int code = 0;
    const qint64 delay = rng.bounded(qint64(budgetMs));
    const bool killed = runCliKilledAfter({QStringLiteral("realign"), QStringLiteral("--yes"),
                                           QStringLiteral("--journal"), journal,
                                           QStringLiteral("--backup-dir"), backups, target},
                                          delay, &code);
    qInfo("  realign %s after %lld ms", killed ? "killed" : "finished", delay);
    if (!killed && code != 0)
        return problems << QStringLiteral("realign exited %1").arg(code);
    if (killed && killResume && QFile::exists(journal)) {
        const qint64 again = rng.bounded(qint64(budgetMs));
        const bool k = runCliKilledAfter(
            {QStringLiteral("resume"), QStringLiteral("--journal"), journal, target}, again, &code);
        qInfo("  resume %s after %lld ms", k ? "killed" : "finished", again);
        if (!k && code != 0)
            return problems << QStringLiteral("resume exited %1").arg(code);
    }
    if (QFile::exists(journal)) {
        const CliResult r = runCli(
            {QStringLiteral("resume"), QStringLiteral("--journal"), journal, target}, 300000);
        if (r.exitCode != 0)
            problems << QStringLiteral("resume: %1 %2").arg(r.describe(), QString::fromUtf8(r.out));
    } else if (killed) {
        // Killed before the journal existed or after it was removed: a new run finishes it.
        const CliResult r =
            runCli({QStringLiteral("realign"), QStringLiteral("--yes"), QStringLiteral("--journal"),
                    journal, QStringLiteral("--backup-dir"), backups, target},
                   300000);
        if (r.exitCode != 0)
            problems << QStringLiteral("realign after the kill: %1 %2")
                            .arg(r.describe(), QString::fromUtf8(r.out));
    }
    if (QFile::exists(journal))
        problems << QStringLiteral("journal left behind: %1").arg(journal);
    return problems;
}

void TestRealign::killAndResume_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<bool>("onLoop");
    QTest::addColumn<int>("iteration");
    // One run of each layout and target at random instants (the seed is new every run and
    // printed); odd iterations on images and even ones on loop devices also kill the resumes.
    // tst_movecrash and tst_powercut cut every step systematically; these take the whole job.
    QTest::addRow("mbr-image-1") << QStringLiteral("mbr-legacy") << false << 1;
    QTest::addRow("gpt-image-0") << QStringLiteral("gpt-legacy") << false << 0;
    QTest::addRow("down-image-1") << QStringLiteral("mbr-down") << false << 1;
    QTest::addRow("mbr-loop-0") << QStringLiteral("mbr-legacy") << true << 0;
    QTest::addRow("gpt-loop-1") << QStringLiteral("gpt-legacy") << true << 1;
    QTest::addRow("down-loop-0") << QStringLiteral("mbr-down") << true << 0;
    QTest::addRow("down-chain-image-1") << QStringLiteral("gpt-down-chain") << false << 1;
    // A chain through an extended partition: its table-only steps, logical partitions and EBRs.
    QTest::addRow("extended-image-1") << QStringLiteral("mbr-extended-moves") << false << 1;
    QTest::addRow("extended-loop-0") << QStringLiteral("mbr-extended-moves") << true << 0;
    // The shrink runs resize2fs and ntfsresize before the move; kills land there too, with and
    // without the resumes killed.
    for (int i = 0; i < 2; ++i)
        QTest::addRow("shrink-image-%d", i) << QStringLiteral("gpt-shrink") << false << i;
}

void TestRealign::killAndResume()
{
    QFETCH(QString, layout);
    QFETCH(bool, onLoop);
    QFETCH(int, iteration);
    // One generator per row, so a single row reruns with the same instants.
    QRandomGenerator rng(m_seed + quint32(qHash(QString::fromLatin1(QTest::currentDataTag()))));
    const qint64 budget = m_durationMs.value(layout, 4000) * 11 / 10 + 1;
    const QString name = QString::fromLatin1(QTest::currentDataTag());
    const QString image = freshCopy(layout, name);
    QVERIFY(!image.isEmpty());
    const QString journal =
        onLoop ? m_dir.filePath(name + QStringLiteral(".journal")) : journalOf(image);
    QStringList problems;
    if (onLoop) {
        LoopDevice loop(image);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QVERIFY2(loop.addPartitions(), qPrintable(loop.error()));
        problems = runToCompletion(loop.path(), journal, iteration % 2 == 0, rng, budget);
    } else {
        problems = runToCompletion(image, journal, iteration % 2 == 1, rng, budget);
    }
    detachLoopsOf(image);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    problems = verifyImage((*m_shelf)[layout], image);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QFile::remove(image);
}

// A 4Kn disk (4096-byte LBAs): GPT from LBA 6, where nothing is misaligned but nothing is on
// the 1 MiB grain either; `--all` moves ext4 and the XFS adjacent to it onto LBA multiples of
// 256. Built and checked through the loop device's partition nodes.
void TestRealign::realign4knLoopDevice()
{
    const QString image = m_dir.filePath(QStringLiteral("4kn.img"));
    QFile f(image);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(36864LL * 4096));
    f.close();
    LoopDevice loop(image, 4096);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QCOMPARE(loop.queueValue(QStringLiteral("logical_block_size")), 4096);
    const QList<PartSpec> parts{{1, QStringLiteral("ext4"), QStringLiteral("pw4k1"), 6, 16384},
                                {2, QStringLiteral("xfs"), QStringLiteral("pw4k2"), 16390, 16384}};
    QString script = QStringLiteral("label: gpt\nfirst-lba: 6\n");
    for (const PartSpec &p : parts)
        script +=
            QStringLiteral("start=%1, size=%2, type=%3\n").arg(p.start).arg(p.size).arg(kLinuxGuid);
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), loop.path()}, script.toUtf8());
    QVERIFY2(table.ok(), qPrintable(table.describe()));
    QVERIFY2(loop.addPartitions(), qPrintable(loop.error()));
    QMap<int, BlkidInfo> ids;
    QString error;
    for (const PartSpec &p : parts) {
        const QString node = loop.partitionNode(p.number);
        QVERIFY2(makeFilesystem(node, p.fs, p.label, 0, &error), qPrintable(error));
        QVERIFY2(fillFilesystem(node, p.fs, m_source, &error), qPrintable(error));
        ids.insert(p.number, blkidProbe(node));
        QCOMPARE(ids[p.number].type, p.fs);
    }

    const CliResult r =
        runCli({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"),
                QStringLiteral("--journal"), m_dir.filePath(QStringLiteral("4kn.journal")),
                QStringLiteral("--backup-dir"), m_dir.filePath("backups"), loop.path()},
               300000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
    const ToolResult valid = runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), loop.path()});
    QVERIFY2(valid.ok() && valid.out.contains("No problems found"),
             qPrintable(valid.describe() + QString::fromUtf8(valid.out)));
    const SfdiskTable after = SfdiskTable::read(loop.path());
    QVERIFY2(after.ok, qPrintable(after.error));
    QCOMPARE(after.sectorSize, 4096);
    for (const PartSpec &spec : parts) {
        const SfdiskPartition *p = after.find(spec.number);
        QVERIFY(p);
        QVERIFY2(p->start % 256 == 0, qPrintable(QString::number(p->start)));
        QCOMPARE(p->size, spec.size);
        // sysfs counts 512-byte units whatever the LBA size.
        QCOMPARE(sysfsStart(loop.path(), spec.number), QString::number(p->start * 8));
        const QString node = loop.partitionNode(spec.number);
        QCOMPARE(blkidProbe(node).uuid, ids[spec.number].uuid);
        const ToolResult fsck = checkFilesystemReadOnly(node, spec.fs);
        QVERIFY2(fsck.ok(), qPrintable(fsck.describe() + QString::fromUtf8(fsck.out)));
        const QStringList diff =
            compareTrees(m_expected, filesystemTreeSha256(node, spec.fs, &error));
        QVERIFY2(diff.isEmpty(), qPrintable(diff.mid(0, 5).join(QLatin1String(", ")) + error));
    }
    const CliResult check =
        runCli({QStringLiteral("check"), QStringLiteral("--json"), loop.path()});
    QVERIFY2(check.exitCode == 0, qPrintable(check.describe()));
    for (const QJsonValue &v :
         check.device(loop.path()).value(QStringLiteral("partitions")).toArray())
        QCOMPARE(v.toObject().value(QStringLiteral("status")).toString(),
                 QStringLiteral("aligned"));
}

// Partition 1 of the GPT layout cannot reach the grain alone (partition 2 follows it without a
// gap and btrfs is not shrunk): the realignment must say why, change nothing and exit 1.
void TestRealign::readOnlyLoopRefused()
{
    const QString image = freshCopy(QStringLiteral("mbr-legacy"), QStringLiteral("readonly"));
    QVERIFY(!image.isEmpty());
    const QByteArray before = fileSha256(image);
    const QString journal = m_dir.filePath(QStringLiteral("readonly.journal"));
    {
        LoopRange loop(image, 0, 0, true);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        const CliResult r = runCli(
            {QStringLiteral("realign"), QStringLiteral("--yes"), QStringLiteral("--journal"),
             journal, QStringLiteral("--backup-dir"), m_dir.filePath("backups"), loop.path()});
        QVERIFY2(r.started && !r.crashed, qPrintable(r.describe()));
        QVERIFY2(r.exitCode == 1 || r.exitCode == 2, qPrintable(r.describe()));
        QVERIFY2(r.err.contains("read-only"), qPrintable(r.describe()));
        QVERIFY2(!QFile::exists(journal), "a refused realignment must leave no journal");
        QVERIFY(!QFile::exists(journal + QStringLiteral(".data")));
    }
    QCOMPARE(fileSha256(image), before);
    QFile::remove(image);
}

void TestRealign::mountedPartitionRefused()
{
    const QString image = freshCopy(QStringLiteral("gpt-legacy"), QStringLiteral("mounted"));
    QVERIFY(!image.isEmpty());
    const QString journal = m_dir.filePath(QStringLiteral("mounted.journal"));
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY2(loop.addPartitions(), qPrintable(loop.error()));
    const ToolResult dumpBefore =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-d"), loop.path()});
    QVERIFY(dumpBefore.ok());
    QTemporaryDir mnt;
    const ToolResult mount =
        runTool(QStringLiteral("mount"),
                {QStringLiteral("-o"), QStringLiteral("ro"), loop.partitionNode(2), mnt.path()});
    QVERIFY2(mount.ok(), qPrintable(mount.describe()));
    const CliResult r =
        runCli({QStringLiteral("realign"), QStringLiteral("--yes"), QStringLiteral("--journal"),
                journal, QStringLiteral("--backup-dir"), m_dir.filePath("backups"), loop.path()});
    // The same disk through its image file: the loop device showing it is in use.
    const CliResult viaImage =
        runCli({QStringLiteral("realign"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                m_dir.filePath("backups"), image});
    runTool(QStringLiteral("umount"), {mnt.path()});
    for (const CliResult &c : {r, viaImage}) {
        QVERIFY2(c.started && !c.crashed, qPrintable(c.describe()));
        QVERIFY2(c.exitCode == 1 || c.exitCode == 2, qPrintable(c.describe()));
        QVERIFY2(c.err.contains("mounted"), qPrintable(c.describe()));
    }
    QVERIFY(!QFile::exists(journal));
    QVERIFY(!QFile::exists(journalOf(image)));
    const ToolResult dumpAfter =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-d"), loop.path()});
    QCOMPARE(dumpAfter.out, dumpBefore.out);
    // Nothing moved: the first partition is still where it was, with its filesystem.
    const BlkidInfo first = blkidProbe(loop.partitionNode(1));
    QCOMPARE(first.uuid, (*m_shelf)[QStringLiteral("gpt-legacy")].ids.value(1).uuid);
}

QTEST_GUILESS_MAIN(TestRealign)
#include "tst_realign.moc"
