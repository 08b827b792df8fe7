// `partwise-cli realign --unmount` on a loop device whose filesystems the test mounted itself
// (root): ext4 mounted twice (a bind mount), XFS with its own option, a btrfs subvolume mounted
// by name (as Ubuntu mounts "@"), a swap partition on. The
// realignment runs, every file comes back byte for byte, and each filesystem is mounted back
// where it was with its options, the swap on again — all read from sfdisk, findmnt, swapon and
// the filesystems' own checks. A process of the test holding a file open keeps its filesystem
// busy: the run is refused, the process named, and the disk not written (sha256).
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

QStringList findmnt(const QString &device, const QString &column)
{
    const ToolResult r =
        runTool(QStringLiteral("findmnt"), {QStringLiteral("-n"), QStringLiteral("-o"), column,
                                            QStringLiteral("--source"), device});
    QStringList lines = QString::fromLocal8Bit(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    lines.sort();
    return lines;
}

bool swapOn(const QString &device)
{
    const ToolResult r = runTool(QStringLiteral("swapon"),
                                 {QStringLiteral("--show=NAME"), QStringLiteral("--noheadings")});
    return QString::fromLocal8Bit(r.out).split(QLatin1Char('\n')).contains(device);
}

bool run(const QString &program, const QStringList &args)
{
    const ToolResult r = runTool(program, args);
    if (!r.ok())
        qWarning("%s", qPrintable(r.describe()));
    return r.ok();
}

// Undoes what a test mounted and swapped on, whatever happened.
struct Teardown
{
    QStringList mounts;
    QString swap;
    ~Teardown()
    {
        for (auto it = mounts.crbegin(); it != mounts.crend(); ++it)
            runTool(QStringLiteral("umount"), {*it});
        if (!swap.isEmpty())
            runTool(QStringLiteral("swapoff"), {swap});
    }
};

} // namespace

class TestUnmountJob : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void realignUnmountsAndMountsBack();
    void busyFilesystemNamesTheProcess();

private:
    QTemporaryDir m_dir;
};

void TestUnmountJob::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
}

void TestUnmountJob::realignUnmountsAndMountsBack()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // ext4, XFS and btrfs one sector past the grain, swap aligned between them.
    const QString image = m_dir.filePath(QStringLiteral("realign.img"));
    QString error;
    QVERIFY2(SfdiskTable::writeImage(image, 192ll << 20,
                                     "label: gpt\nstart=2049, size=40960, type=linux\n"
                                     "start=45057, size=81920, type=linux\n"
                                     "start=129024, size=16384, type=swap\n"
                                     "start=147457, size=229376, type=linux\n",
                                     &error),
             qPrintable(error));
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(loop.addPartitions());
    const QString ext4 = loop.partitionNode(1);
    const QString xfs = loop.partitionNode(2);
    const QString swap = loop.partitionNode(3);
    const QString btrfs = loop.partitionNode(4);
    QVERIFY(run(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-E"),
                 QStringLiteral("lazy_itable_init=0,lazy_journal_init=0"), ext4}));
    QVERIFY2(makeFilesystem(xfs, QStringLiteral("xfs"), QStringLiteral("pwxfs"), 0, &error),
             qPrintable(error));
    QVERIFY(run(QStringLiteral("mkswap"), {swap}));
    QVERIFY2(makeFilesystem(btrfs, QStringLiteral("btrfs"), QStringLiteral("pwbtrfs"), 0, &error),
             qPrintable(error));

    const QString a = m_dir.filePath(QStringLiteral("a"));
    const QString a2 = m_dir.filePath(QStringLiteral("a-bind"));
    const QString b = m_dir.filePath(QStringLiteral("b"));
    const QString c = m_dir.filePath(QStringLiteral("c"));
    for (const QString &folder : {a, a2, b, c})
        QVERIFY(QDir().mkpath(folder));
    Teardown teardown;
    QVERIFY(run(QStringLiteral("mount"), {ext4, a}));
    teardown.mounts << a;
    QVERIFY(run(QStringLiteral("mount"), {QStringLiteral("--bind"), a, a2}));
    teardown.mounts << a2;
    QVERIFY(
        run(QStringLiteral("mount"), {QStringLiteral("-o"), QStringLiteral("noatime"), xfs, b}));
    teardown.mounts << b;
    QVERIFY(run(QStringLiteral("swapon"), {swap}));
    teardown.swap = swap;
    // The subvolume "@" is made through a first mount of the top, then mounted alone.
    QVERIFY(run(QStringLiteral("mount"), {btrfs, c}));
    QVERIFY(run(QStringLiteral("btrfs"),
                {QStringLiteral("subvolume"), QStringLiteral("create"), c + QStringLiteral("/@")}));
    QVERIFY(run(QStringLiteral("umount"), {c}));
    QVERIFY(
        run(QStringLiteral("mount"), {QStringLiteral("-o"), QStringLiteral("subvol=@"), btrfs, c}));
    teardown.mounts << c;
    QVERIFY2(makeFileTree(a, 40, 3 << 20, 11, &error), qPrintable(error));
    QVERIFY2(makeFileTree(b, 40, 3 << 20, 12, &error), qPrintable(error));
    QVERIFY2(makeFileTree(c, 30, 3 << 20, 13, &error), qPrintable(error));
    const auto treeA = treeSha256(a);
    const auto treeB = treeSha256(b);
    const auto treeC = treeSha256(c);
    const QStringList targetsExt4 = findmnt(ext4, QStringLiteral("TARGET"));
    const QStringList optionsXfs = findmnt(xfs, QStringLiteral("TARGET,OPTIONS"));
    const QStringList placeBtrfs = findmnt(btrfs, QStringLiteral("TARGET,FSROOT,OPTIONS"));
    QCOMPARE(placeBtrfs.size(), 1);
    QVERIFY2(placeBtrfs[0].contains(QStringLiteral("subvol=/@")), qPrintable(placeBtrfs[0]));
    QCOMPARE(targetsExt4, (QStringList{a, a2}));

    const CliResult r = runCli({QStringLiteral("realign"), QStringLiteral("--unmount"),
                                QStringLiteral("--yes"), loop.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));

    const SfdiskTable table = SfdiskTable::read(loop.path());
    QVERIFY2(table.ok, qPrintable(table.error));
    // Every partition on the 1 MiB grain now, each its own size.
    QCOMPARE(table.partitions.size(), 4);
    const QList<qint64> sizes{40960, 81920, 16384, 229376};
    for (int i = 0; i < 4; ++i) {
        QVERIFY2(table.partitions[i].start % 2048 == 0,
                 qPrintable(QStringLiteral("partition %1 starts at %2")
                                .arg(i + 1)
                                .arg(table.partitions[i].start)));
        QCOMPARE(table.partitions[i].size, sizes[i]);
    }
    QCOMPARE(findmnt(ext4, QStringLiteral("TARGET")), targetsExt4);
    QCOMPARE(findmnt(xfs, QStringLiteral("TARGET,OPTIONS")), optionsXfs);
    QCOMPARE(findmnt(btrfs, QStringLiteral("TARGET,FSROOT,OPTIONS")), placeBtrfs);
    QVERIFY(swapOn(swap));
    QCOMPARE(compareTrees(treeA, treeSha256(a)), QStringList());
    QCOMPARE(compareTrees(treeB, treeSha256(b)), QStringList());
    QCOMPARE(compareTrees(treeC, treeSha256(c)), QStringList());

    // The filesystems' own checks, unmounted.
    teardown.mounts.clear();
    for (const QString &folder : {a2, a, b, c})
        QVERIFY(run(QStringLiteral("umount"), {folder}));
    for (const auto &[node, fs] :
         {qMakePair(ext4, QStringLiteral("ext4")), qMakePair(xfs, QStringLiteral("xfs")),
          qMakePair(btrfs, QStringLiteral("btrfs"))}) {
        const ToolResult check = checkFilesystemReadOnly(node, fs);
        QVERIFY2(check.ok(), qPrintable(check.describe()));
    }
}

void TestUnmountJob::busyFilesystemNamesTheProcess()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // Swap first, so the refusal comes after something was released: that is put back.
    const QString image = m_dir.filePath(QStringLiteral("busy.img"));
    QString error;
    QVERIFY2(SfdiskTable::writeImage(image, 48ll << 20,
                                     "label: gpt\nstart=2048, size=16384, type=swap\n"
                                     "start=18433, size=40960, type=linux\n",
                                     &error),
             qPrintable(error));
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(loop.addPartitions());
    const QString swap = loop.partitionNode(1);
    const QString ext4 = loop.partitionNode(2);
    QVERIFY(run(QStringLiteral("mkswap"), {swap}));
    QVERIFY(run(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-E"),
                 QStringLiteral("lazy_itable_init=0,lazy_journal_init=0"), ext4}));
    const QString folder = m_dir.filePath(QStringLiteral("busy"));
    QVERIFY(QDir().mkpath(folder));
    Teardown teardown;
    QVERIFY(run(QStringLiteral("swapon"), {swap}));
    teardown.swap = swap;
    QVERIFY(run(QStringLiteral("mount"),
                {QStringLiteral("-o"), QStringLiteral("noatime"), ext4, folder}));
    teardown.mounts << folder;
    QFile held(folder + QStringLiteral("/held.txt"));
    QVERIFY(held.open(QIODevice::WriteOnly));
    held.write("kept open by the test\n");
    held.close();
    QProcess holder;
    holder.setStandardInputFile(held.fileName());
    holder.start(QStringLiteral("sleep"), {QStringLiteral("60")});
    QVERIFY(holder.waitForStarted());
    QVERIFY(run(QStringLiteral("sync"), {}));
    const QByteArray before = fileSha256(image);

    const CliResult r = runCli({QStringLiteral("realign"), QStringLiteral("--unmount"),
                                QStringLiteral("--yes"), loop.path()});
    QVERIFY(run(QStringLiteral("sync"), {}));
    const QByteArray after = fileSha256(image);
    const qint64 pid = holder.processId();
    holder.kill();
    holder.waitForFinished();

    QCOMPARE(r.exitCode, 1);
    const QString said = QString::fromLocal8Bit(r.err);
    QVERIFY2(said.contains(QStringLiteral("sleep (pid %1)").arg(pid)), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("Nothing was changed")), qPrintable(said));
    QCOMPARE(after, before);
    QCOMPARE(findmnt(ext4, QStringLiteral("TARGET")), QStringList{folder});
    QVERIFY(swapOn(swap));
    QCOMPARE(SfdiskTable::read(loop.path()).starts(), (QList<qint64>{2048, 18433}));
}

QTEST_GUILESS_MAIN(TestUnmountJob)
#include "tst_unmountjob.moc"
