// Editing through plan files, checked with sfdisk, sgdisk, parted and blkid.
#include "filechecksum.h"
#include "loopdevice.h"
#include "ops/applyrunner.h"
#include "ops/jobresume.h"
#include "ops/planfile.h"
#include "ops/tablebackup.h"
#include "sfdisktable.h"
#include "table/diskreader.h"
#include "toolrun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace partwise;

using namespace pwtest;

namespace {

QString output(const QString &program, const QStringList &args, int *status = nullptr)
{
    const ToolResult r = runTool(program, args);
    if (status)
        *status = r.exitCode;
    return QString::fromUtf8(r.out + r.err);
}

// The partition table's part of an image: what Apply may change and a backup restores.
QByteArray firstMiB(const QString &path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.read(1 << 20);
}

QList<Operation> plan(const char *json)
{
    QList<Operation> ops;
    QString error;
    if (!parsePlan(QByteArray(json), &ops, &error))
        qWarning() << error;
    return ops;
}

} // namespace

class ApplyTest : public QObject
{
    Q_OBJECT
private slots:
    void gptWithThreeFormattedPartitions();
    void mbrLogicalPartitionsStartOnTheGrain();
    void fourKnUsesItsOwnSectors();
    void impossiblePlanChangesNothing();
    void backupRestoresTableByteForByte();
    void planRoundTrips();
    void mountedPartitionIsRefused();
    void cancelStopsBeforeTheNextOperation();
    void staleKernelPartitionIsNotWrittenThrough();
    void partitionUnderAMountedStaleOneIsRefused();

private:
    QString image(const QString &name, qint64 size = qint64(512) << 20);
    ApplyOptions options() const;
    QTemporaryDir m_dir;
};

QString ApplyTest::image(const QString &name, qint64 size)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.resize(size);
    return path;
}

ApplyOptions ApplyTest::options() const
{
    ApplyOptions o;
    o.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    return o;
}

// Cancel (the helper's "cancel") stops Apply before its next operation: what was applied stays,
// the journal keeps the rest, and resume applies exactly the rest.
void ApplyTest::cancelStopsBeforeTheNextOperation()
{
    const QString img = image(QStringLiteral("cancel.img"), qint64(64) << 20);
    const QList<Operation> operations = plan(R"({"operations":[
        {"op":"new-table","type":"gpt"},
        {"op":"create","size":"8MiB"},
        {"op":"create","size":"8MiB"}]})");
    std::atomic<bool> cancel{false};
    ApplyCallbacks callbacks;
    callbacks.cancel = &cancel;
    callbacks.progress = [&cancel](int done, int) { cancel = done >= 2; };
    const ApplyResult r = applyOperations(img, operations, options(), callbacks);
    QVERIFY(!r.ok);
    QCOMPARE(r.completed, 2);
    QVERIFY2(r.resumable && r.error.contains(QStringLiteral("Cancelled")), qPrintable(r.error));
    QCOMPARE(SfdiskTable::read(img).partitions.size(), 1); // sfdisk: only the first one
    const RealignResult resumed = resumeWriteJob(img, r.journalPath, {});
    QVERIFY2(resumed.ok, qPrintable(resumed.error));
    QCOMPARE(SfdiskTable::read(img).partitions.size(), 2);
}

void ApplyTest::gptWithThreeFormattedPartitions()
{
    const QString img = image(QStringLiteral("gpt.img"));
    const ApplyResult r = applyOperations(img, plan(R"({"operations":[
        {"op":"new-table","type":"gpt"},
        {"op":"create","size":"256MiB","fs":"ext4","label":"root"},
        {"op":"create","size":"64MiB","fs":"vfat","name":"EFI","flags":["esp"]},
        {"op":"create","size":"rest","fs":"swap","label":"swap"}]})"),
                                          options());
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(output(QStringLiteral("sgdisk"), {QStringLiteral("-v"), img})
                .contains(QLatin1String("No problems found")));
    const SfdiskTable table = SfdiskTable::read(img);
    QCOMPARE(table.partitions.size(), 3);
    const char *types[] = {"ext4", "vfat", "swap"};
    for (int i = 0; i < 3; ++i) {
        const qint64 start = table.partitions[i].start;
        QCOMPARE(start % 2048, 0);
        int status = -1;
        output(QStringLiteral("parted"),
               {QStringLiteral("-s"), img, QStringLiteral("align-check"), QStringLiteral("opt"),
                QString::number(i + 1)},
               &status);
        QCOMPARE(status, 0);
        QCOMPARE(output(QStringLiteral("blkid"),
                        {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(start * 512),
                         QStringLiteral("-s"), QStringLiteral("TYPE"), QStringLiteral("-o"),
                         QStringLiteral("value"), img})
                     .trimmed(),
                 QString::fromLatin1(types[i]));
    }
    QVERIFY(output(QStringLiteral("sfdisk"), {QStringLiteral("-d"), img})
                .contains(QLatin1String("name=\"EFI\"")));
    QCOMPARE(table.partitions[1].type,
             QStringLiteral("C12A7328-F81F-11D2-BA4B-00A0C93EC93B")); // the ESP type GUID
    QVERIFY(QFile::exists(r.backupFolder + QStringLiteral("/first-mib.bin")));
}

void ApplyTest::mbrLogicalPartitionsStartOnTheGrain()
{
    const QString img = image(QStringLiteral("mbr.img"));
    const ApplyResult r = applyOperations(img, plan(R"({"operations":[
        {"op":"new-table","type":"msdos"},
        {"op":"create","size":"100MiB"},
        {"op":"create","kind":"extended","size":"rest"},
        {"op":"create","kind":"logical","size":"100MiB"},
        {"op":"create","kind":"logical","size":"100MiB"},
        {"op":"create","kind":"logical","size":"rest"}]})"),
                                          options());
    QVERIFY2(r.ok, qPrintable(r.error));
    const SfdiskTable table = SfdiskTable::read(img);
    QCOMPARE(table.partitions.size(), 5);
    int status = -1;
    output(QStringLiteral("sfdisk"), {QStringLiteral("-V"), img}, &status);
    QCOMPARE(status, 0);
    for (const SfdiskPartition &p : table.partitions) {
        if (p.kind == QLatin1String("extended"))
            continue; // the container itself is exempt
        QVERIFY2(p.start % 2048 == 0, qPrintable(p.node));
    }
}

void ApplyTest::fourKnUsesItsOwnSectors()
{
    const QString img = image(QStringLiteral("4kn.img"));
    ApplyOptions o = options();
    o.forcedSectorSize = 4096;
    const ApplyResult r = applyOperations(img, plan(R"({"operations":[
        {"op":"new-table","type":"gpt"},
        {"op":"create","size":"100MiB","fs":"ext4"},
        {"op":"create","size":"rest"}]})"),
                                          o);
    QVERIFY2(r.ok, qPrintable(r.error));
    // sfdisk reads an image with 512-byte sectors; a loop device gives it the 4Kn view.
    QFile f(img);
    QVERIFY(f.open(QIODevice::ReadOnly));
    f.seek(4096);
    QCOMPARE(f.read(8), QByteArray("EFI PART"));
    PW_REQUIRE_ROOT_OR_SKIP();
    LoopDevice loop(img, 4096);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const SfdiskTable table = SfdiskTable::read(loop.path());
    QCOMPARE(table.sectorSize, 4096);
    QCOMPARE(table.partitions.size(), 2);
    for (const SfdiskPartition &p : table.partitions)
        QCOMPARE(p.start % 256, 0);
}

void ApplyTest::impossiblePlanChangesNothing()
{
    const QString img = image(QStringLiteral("small.img"), qint64(64) << 20);
    QVERIFY(
        applyOperations(img, plan(R"({"operations":[{"op":"new-table","type":"gpt"}]})"), options())
            .ok);
    const QByteArray before = fileSha256(img);
    const ApplyResult r = applyOperations(img, plan(R"({"operations":[
        {"op":"create","size":"10MiB"},
        {"op":"create","size":"1GiB"}]})"),
                                          options());
    QVERIFY(!r.ok);
    QVERIFY(r.error.contains(QLatin1String("Nothing was changed")));
    QCOMPARE(fileSha256(img), before);
}

void ApplyTest::backupRestoresTableByteForByte()
{
    const QString img = image(QStringLiteral("restore.img"), qint64(128) << 20);
    QVERIFY(applyOperations(img, plan(R"({"operations":[{"op":"new-table","type":"msdos"},
        {"op":"create","size":"20MiB"},{"op":"create","size":"20MiB"}]})"),
                            options())
                .ok);
    const QByteArray original = fileSha256(img);
    const QString sfdiskBefore = output(QStringLiteral("sfdisk"), {QStringLiteral("-d"), img});
    const ApplyResult r =
        applyOperations(img, plan(R"({"operations":[{"op":"new-table","type":"gpt"},
        {"op":"create","size":"rest"}]})"),
                        options());
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(fileSha256(img) != original);
    QString error;
    QVERIFY2(restorePartitionTable(r.backupFolder, img, &error), qPrintable(error));
    QCOMPARE(fileSha256(img), original);
    QCOMPARE(output(QStringLiteral("sfdisk"), {QStringLiteral("-d"), img}), sfdiskBefore);
}

void ApplyTest::planRoundTrips()
{
    const QList<Operation> ops = plan(R"({"operations":[
        {"op":"new-table","type":"gpt"},
        {"op":"create","size":"256MiB","fs":"ext4","label":"root"},
        {"op":"create","size":"64MiB","fs":"vfat","name":"EFI","flags":["esp"]},
        {"op":"create","size":"rest","fs":"swap","align":"4k"},
        {"op":"delete","number":3},{"op":"format","number":2,"fs":"ext4"}]})");
    QCOMPARE(ops.size(), 6);
    QList<Operation> again;
    QString error;
    QVERIFY(parsePlan(serializePlan(ops), &again, &error));
    QCOMPARE(serializePlan(again), serializePlan(ops));
    QCOMPARE(again[3].alignTo, AlignTo::FourKiB);
    QVERIFY(!parsePlan("{\"operations\":[{\"op\":\"explode\"}]}", &again, &error));
    QVERIFY(error.contains(QLatin1String("explode")));
}

void ApplyTest::mountedPartitionIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("mounted.img"), qint64(128) << 20);
    QVERIFY(applyOperations(img, plan(R"({"operations":[{"op":"new-table","type":"gpt"},
        {"op":"create","size":"rest","fs":"ext4"}]})"),
                            options())
                .ok);
    const QString mnt = m_dir.filePath(QStringLiteral("mnt"));
    QDir().mkpath(mnt);
    int status = -1;
    QByteArray before, after;
    ApplyResult r, viaImage;
    {
        LoopDevice loop(img);
        QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
        output(QStringLiteral("mount"), {loop.partitionNode(1), mnt}, &status);
        // The mounted filesystem writes to itself; the table (first MiB) must not change.
        before = firstMiB(img);
        r = applyOperations(loop.path(), plan(R"({"operations":[{"op":"delete","number":1}]})"),
                            options());
        viaImage = applyOperations(
            img, plan(R"({"operations":[{"op":"format","number":1,"fs":"ext2"}]})"), options());
        after = firstMiB(img);
        output(QStringLiteral("umount"), {mnt});
    }
    QCOMPARE(status, 0);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("mounted on")), qPrintable(r.error));
    QVERIFY(!viaImage.ok);
    QVERIFY2(viaImage.error.contains(QLatin1String("mounted on")), qPrintable(viaImage.error));
    QCOMPARE(after, before);
}

// The kernel still has partition 1 where an older table had it, over what the table now calls
// partition 2 (sfdisk --no-reread, as when a disk's table is rewritten while it is busy). A
// format of partition 1 must land where the table says, and partition 2's bytes stay as they
// were: through the stale node, mkfs wrote over partition 2 and reported success.
void ApplyTest::staleKernelPartitionIsNotWrittenThrough()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("stale.img"), qint64(64) << 20);
    QByteArray pattern(4 << 20, Qt::Uninitialized);
    for (int i = 0; i < pattern.size(); ++i)
        pattern[i] = char((i * 131) ^ (i >> 12));
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const ToolResult old = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), loop.path()},
                                   "label: dos\nstart=8192, size=16384, type=83\n");
    QVERIFY2(old.ok(), qPrintable(old.describe()));
    QVERIFY(loop.addPartitions()); // the kernel's partition 1: sectors 8192-24575
    const ToolResult now =
        runTool(QStringLiteral("sfdisk"),
                {QStringLiteral("-q"), QStringLiteral("--no-reread"), loop.path()},
                "label: dos\nstart=2048, size=6144, type=83\nstart=8192, size=16384, type=83\n");
    QVERIFY2(now.started && !now.crashed, qPrintable(now.describe()));
    {
        QFile disk(loop.path());
        QVERIFY(disk.open(QIODevice::ReadWrite) && disk.seek(8192LL * 512));
        QCOMPARE(disk.write(pattern), qint64(pattern.size()));
    }
    // Read as the window reads it, partition 1 is not named after the node showing other sectors.
    const DiskReadResult read = readDisk(loop.path());
    QVERIFY2(read.ok, qPrintable(read.error));
    QVERIFY(read.layout.partitionByNumber(1));
    QCOMPARE(read.layout.partitionByNumber(1)->devicePath, QString());
    const ApplyResult r = applyOperations(
        loop.path(), plan(R"({"operations":[{"op":"format","number":1,"fs":"ext4"}]})"), options());
    QVERIFY2(r.ok, qPrintable(r.error));
    QFile disk(loop.path());
    QVERIFY(disk.open(QIODevice::ReadOnly) && disk.seek(8192LL * 512));
    QVERIFY2(disk.read(pattern.size()) == pattern, "partition 2's bytes changed");
    const QString fs =
        output(QStringLiteral("blkid"),
               {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(2048 * 512),
                QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                QStringLiteral("TYPE"), loop.path()});
    QCOMPARE(fs.trimmed(), QStringLiteral("ext4"));
}

// The kernel's partition 1, mounted, still spans what the rewritten table calls partition 2 (the
// kernel has no partition 2). A format of partition 2 goes by offset, into the mounted
// filesystem's sectors: it must be refused as in use, the mounted filesystem left as it was.
void ApplyTest::partitionUnderAMountedStaleOneIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("under.img"), qint64(64) << 20);
    const QString mnt = m_dir.filePath(QStringLiteral("under-mnt"));
    QDir().mkpath(mnt);
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), loop.path()},
                    "label: dos\nstart=2048, size=40960, type=83\n")
                .ok());
    QVERIFY(loop.addPartitions());
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), loop.partitionNode(1)})
                .ok());
    QVERIFY(runTool(QStringLiteral("mount"), {loop.partitionNode(1), mnt}).ok());
    runTool(QStringLiteral("sfdisk"),
            {QStringLiteral("-q"), QStringLiteral("--no-reread"), loop.path()},
            "label: dos\nstart=2048, size=6144, type=83\nstart=8192, size=16384, type=83\n");
    const ApplyResult r = applyOperations(
        loop.path(), plan(R"({"operations":[{"op":"format","number":2,"fs":"ext2"}]})"), options());
    QVERIFY(runTool(QStringLiteral("umount"), {mnt}).ok());
    QVERIFY2(!r.ok, "partition 2 was formatted inside the mounted partition 1");
    QVERIFY2(r.error.contains(QLatin1String("mounted on")), qPrintable(r.error));
    const ToolResult check =
        runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), loop.partitionNode(1)});
    QVERIFY2(check.ok(), qPrintable(check.describe()));
}

QTEST_GUILESS_MAIN(ApplyTest)
#include "tst_apply.moc"
