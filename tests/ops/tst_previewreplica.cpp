// The preview of a disk a helper reads: the window may not open that disk, so its table is
// rebuilt on a scratch file and edited there (core/ops/tableeditor, openReplica). Whether that
// copy is faithful is measured against the real thing: the same plan is applied to the image
// itself, and what sfdisk then reads must be what the preview promised, partition numbers
// included (an MBR with an unused slot, logical partitions, a GPT with a gap in its numbering,
// named and flagged entries).
#include "ops/applyrunner.h"
#include "ops/operationpreview.h"
#include "ops/planfile.h"
#include "sfdisktable.h"
#include "table/diskreader.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;
using namespace pwtest;

class TestPreviewReplica : public QObject
{
    Q_OBJECT

private slots:
    void previewOfACopyIsWhatApplyWrites_data();
    void previewOfACopyIsWhatApplyWrites();
    void copyNeverTouchesTheDisk();

private:
    QTemporaryDir m_dir;
};

void TestPreviewReplica::previewOfACopyIsWhatApplyWrites_data()
{
    QTest::addColumn<QByteArray>("table");
    QTest::addColumn<QByteArray>("plan");
    // Slot 2 unused, an extended partition with two logicals: a new primary takes number 2,
    // a new logical number 7, and deleting logical 5 renumbers 6 to 5.
    const QByteArray mbr = "label: dos\n"
                           "1 : start=2048, size=20480, type=83\n"
                           "3 : start=65536, size=20480, type=7\n"
                           "4 : start=131072, size=120000, type=5\n"
                           "5 : start=133120, size=20480, type=83\n"
                           "6 : start=157696, size=20480, type=82\n";
    QTest::newRow("mbr-primary-in-the-gap")
        << mbr << QByteArray(R"({"operations":[{"op":"create","start":"16MiB","size":"8MiB"}]})");
    QTest::newRow("mbr-logical-after-the-others")
        << mbr
        << QByteArray(
               R"({"operations":[{"op":"create","kind":"logical","start":"90MiB","size":"8MiB"}]})");
    QTest::newRow("mbr-delete-a-logical")
        << mbr << QByteArray(R"({"operations":[{"op":"delete","number":5}]})");
    // Entry 2 unused; a named ESP and a named Linux partition.
    const QByteArray gpt = "label: gpt\n"
                           "1 : start=2048, size=20480, type=U, name=\"EFI system\"\n"
                           "3 : start=65536, size=40960, type=L, name=home\n";
    QTest::newRow("gpt-new-partition-takes-the-free-entry")
        << gpt << QByteArray(R"({"operations":[{"op":"create","size":"8MiB"}]})");
    QTest::newRow("gpt-delete-then-create")
        << gpt
        << QByteArray(
               R"({"operations":[{"op":"delete","number":1},{"op":"create","start":"1MiB","size":"4MiB"}]})");
}

void TestPreviewReplica::previewOfACopyIsWhatApplyWrites()
{
    QFETCH(QByteArray, table);
    QFETCH(QByteArray, plan);
    const QString image = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()) + ".img");
    QString error;
    QVERIFY2(SfdiskTable::writeImage(image, 160LL << 20, table, &error), qPrintable(error));
    QList<Operation> operations;
    QVERIFY2(parsePlan(plan, &operations, &error), qPrintable(error));

    DiskReadResult read = readDisk(image);
    QVERIFY2(read.ok, qPrintable(read.error));
    read.layout.device.readByHelper = true; // as the window holds a helper's disk
    const PreviewResult preview = previewOperations(read.layout, operations, AlignmentPolicy());
    QVERIFY2(preview.ok, qPrintable(preview.error));
    QCOMPARE(preview.layout.device.path, image);

    ApplyOptions options;
    options.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    options.journalFolder = m_dir.filePath(QStringLiteral("journals"));
    const ApplyResult applied = applyOperations(image, operations, options, {});
    QVERIFY2(applied.ok, qPrintable(applied.error));

    const SfdiskTable after = SfdiskTable::read(image);
    QVERIFY2(after.ok, qPrintable(after.error));
    QStringList promised, written;
    for (const PartitionInfo &p : preview.layout.partitions())
        promised << QStringLiteral("%1:%2-%3").arg(p.number).arg(p.startSector).arg(p.endSector);
    for (const SfdiskPartition &p : after.partitions)
        written << QStringLiteral("%1:%2-%3").arg(p.number).arg(p.start).arg(p.end());
    promised.sort();
    written.sort();
    QCOMPARE(promised, written);
}

void TestPreviewReplica::copyNeverTouchesTheDisk()
{
    // A helper's path this process cannot open: the preview works from the layout alone.
    const QString image = m_dir.filePath(QStringLiteral("gone.img"));
    QString error;
    QVERIFY2(SfdiskTable::writeImage(image, 64LL << 20,
                                     "label: gpt\nstart=2048, size=20480, type=L\n", &error),
             qPrintable(error));
    DiskReadResult read = readDisk(image);
    QVERIFY2(read.ok, qPrintable(read.error));
    QVERIFY(QFile::remove(image));
    QList<Operation> operations;
    QVERIFY(parsePlan(R"({"operations":[{"op":"create","size":"8MiB"}]})", &operations, &error));

    read.layout.device.readByHelper = true;
    const PreviewResult preview = previewOperations(read.layout, operations, AlignmentPolicy());
    QVERIFY2(preview.ok, qPrintable(preview.error));
    QCOMPARE(preview.layout.partitions().size(), 2);
    QCOMPARE(preview.layout.partitions().at(1).startSector, 22528); // the next MiB
    QVERIFY2(!QFile::exists(image), "the preview created the disk's path");
    // Without the copy, the same preview has to open the disk, and cannot.
    read.layout.device.readByHelper = false;
    QVERIFY(!previewOperations(read.layout, operations, AlignmentPolicy()).ok);
}

QTEST_GUILESS_MAIN(TestPreviewReplica)
#include "tst_previewreplica.moc"
