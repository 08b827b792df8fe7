// The Create dialog's defaults ("Align to" MiB, the largest free space, the rest of it) on a
// 512-byte GPT image, inside an MBR extended partition and on a 4Kn image, applied and checked
// against sfdisk.

#include "editing/createpartitiondialog.h"
#include "editingtestsupport.h"
#include "loopdevice.h"
#include "ops/operationpreview.h"
#include "sfdisktable.h"
#include "table/diskreader.h"

#include <QComboBox>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace partwise;

class CreateDialogTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void createDefaultsOn512ByteImage();
    void createDefaultsOnMbrLogical();
    void createDefaultsOn4KnImage();

private:
    QTemporaryDir m_dir;
};

void CreateDialogTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("PartwiseTests"));
    QCoreApplication::setApplicationName(QStringLiteral("partwise-create-dialog-tests"));
}

void CreateDialogTest::createDefaultsOn512ByteImage()
{
    const QString img = blankImage(m_dir, QStringLiteral("gpt512.img"), 128 * kMiB);
    const DiskLayout base = readDisk(img).layout;
    QCOMPARE(base.device.topology.logicalSectorSize, qint64(512));
    const AlignmentPolicy policy;
    QList<Operation> ops{newTable(QStringLiteral("gpt"))};

    // First partition: the defaults except a size; second: all defaults (the rest).
    for (int i = 0; i < 2; ++i) {
        const DiskLayout shown = previewOperations(base, ops, policy).layout;
        const PartitionInfo *free = largestFree(shown);
        QVERIFY(free);
        CreatePartitionDialog dialog(base, ops, shown, *free, policy);
        QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("alignTo"))->currentText(),
                 QStringLiteral("MiB"));
        if (i == 0) {
            dialog.setSizeBytes(20 * kMiB);
            dialog.setLabel(QStringLiteral("first"));
            dialog.show();
            QTest::qWait(50);
            QVERIFY(dialog.grab().save(screenshotPath(QStringLiteral("create-partition-dialog"))));
        }
        QTRY_VERIFY(dialog.previewedPartition().has_value());
        QCOMPARE(dialog.previewedPartition()->startSector % 2048, 0);
        const Operation op = dialog.operation();
        QCOMPARE(op.alignTo, AlignTo::Grain);
        QCOMPARE(op.filesystem, QStringLiteral("ext4"));
        if (i == 1)
            QCOMPARE(op.sizeBytes, qint64(-1));
        ops << op;
    }
    QString log;
    const ApplyResult r = applyWithDialog(img, ops, 0, &log, QStringLiteral("apply-dialog-done"));
    QVERIFY2(r.ok, qPrintable(r.error + QLatin1Char('\n') + log));
    QVERIFY(!log.isEmpty());
    const QList<qint64> starts = pwtest::SfdiskTable::read(img).starts();
    QCOMPARE(starts.size(), 2);
    for (qint64 start : starts)
        QVERIFY2(start % 2048 == 0, qPrintable(QString::number(start)));
    QCOMPARE(starts.first(), qint64(2048));
}

void CreateDialogTest::createDefaultsOnMbrLogical()
{
    const QString img = blankImage(m_dir, QStringLiteral("mbr512.img"), 128 * kMiB);
    const DiskLayout base = readDisk(img).layout;
    const AlignmentPolicy policy;
    QList<Operation> ops{newTable(QStringLiteral("msdos"))};
    {
        const DiskLayout shown = previewOperations(base, ops, policy).layout;
        CreatePartitionDialog dialog(base, ops, shown, *largestFree(shown), policy);
        dialog.setSizeBytes(16 * kMiB);
        QTRY_VERIFY(dialog.previewedPartition().has_value());
        ops << dialog.operation();
    }
    {
        const DiskLayout shown = previewOperations(base, ops, policy).layout;
        CreatePartitionDialog dialog(base, ops, shown, *largestFree(shown), policy);
        dialog.setKind(PartitionInfo::Kind::Extended);
        QTRY_VERIFY(dialog.previewedPartition().has_value());
        ops << dialog.operation();
        QCOMPARE(ops.last().kind, PartitionInfo::Kind::Extended);
    }
    for (int i = 0; i < 2; ++i) {
        const DiskLayout shown = previewOperations(base, ops, policy).layout;
        const PartitionInfo *free = largestFree(shown, true);
        QVERIFY(free);
        CreatePartitionDialog dialog(base, ops, shown, *free, policy);
        if (i == 0)
            dialog.setSizeBytes(24 * kMiB);
        QTRY_VERIFY(dialog.previewedPartition().has_value());
        QCOMPARE(dialog.operation().kind, PartitionInfo::Kind::Logical);
        if (i == 0) {
            dialog.show();
            QTest::qWait(50);
            QVERIFY(dialog.grab().save(screenshotPath(QStringLiteral("create-logical-dialog"))));
        }
        ops << dialog.operation();
    }
    const ApplyResult r = applyWithDialog(img, ops, 0);
    QVERIFY2(r.ok, qPrintable(r.error));
    const pwtest::SfdiskTable parts = pwtest::SfdiskTable::read(img);
    QVERIFY2(parts.ok, qPrintable(parts.error));
    QCOMPARE(parts.partitions.size(), 4);
    for (const pwtest::SfdiskPartition &p : parts.partitions) {
        if (p.type == QLatin1String("5"))
            continue; // the extended container only holds EBRs
        QVERIFY2(p.start % 2048 == 0, qPrintable(p.node));
    }
}

void CreateDialogTest::createDefaultsOn4KnImage()
{
    const QString img = blankImage(m_dir, QStringLiteral("gpt4kn.img"), 128 * kMiB);
    DiskReadOptions read;
    read.forcedSectorSize = 4096;
    const DiskLayout base = readDisk(img, read).layout;
    QCOMPARE(base.device.topology.logicalSectorSize, qint64(4096));
    const AlignmentPolicy policy;
    QList<Operation> ops{newTable(QStringLiteral("gpt"))};
    for (int i = 0; i < 2; ++i) {
        const DiskLayout shown = previewOperations(base, ops, policy).layout;
        const PartitionInfo *free = largestFree(shown);
        QVERIFY(free);
        CreatePartitionDialog dialog(base, ops, shown, *free, policy);
        if (i == 0)
            dialog.setSizeBytes(32 * kMiB);
        QTRY_VERIFY(dialog.previewedPartition().has_value());
        QCOMPARE(dialog.previewedPartition()->startSector % 256, 0);
        ops << dialog.operation();
    }
    const ApplyResult r = applyWithDialog(img, ops, 4096);
    QVERIFY2(r.ok, qPrintable(r.error));

    QList<qint64> starts;
    if (::geteuid() == 0) {
        // A loop device with 4096-byte sectors gives sfdisk the 4Kn view.
        pwtest::LoopDevice loop(img, 4096);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        starts = pwtest::SfdiskTable::read(loop.path()).starts();
    } else {
        // fdisk can be told the sector size of an image.
        starts = pwtest::SfdiskTable::readWithSectorSize(img, 4096).starts();
    }
    QCOMPARE(starts.size(), 2);
    for (qint64 start : starts)
        QVERIFY2(start % 256 == 0, qPrintable(QString::number(start)));
    QCOMPARE(starts.first(), qint64(256));
}

QTEST_MAIN(CreateDialogTest)
#include "tst_createdialog.moc"
