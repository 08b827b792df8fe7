// What a new user checks after Format and Resize/Move in the editing window: a Format gives the
// partition the table type of its new filesystem (read back with sfdisk -J, as Copy Disk's
// copies get it), the selection stays on the partition an operation changed (never the
// extended partition around a logical one), and Resize/Move of a logical partition says why
// its EBR keeps the grain free before it.
#include "base/humansize.h"
#include "buildsetting.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "editing/resizepartitiondialog.h"
#include "editingharness.h"
#include "editingtestsupport.h"
#include "toolrun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;
using namespace pwtest;

namespace {

// sfdisk -J's partitions, keyed by node suffix number ("img5" → 5).
QMap<int, QJsonObject> sfdiskPartitions(const QString &img)
{
    QMap<int, QJsonObject> out;
    const QJsonArray parts =
        QJsonDocument::fromJson(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), img}).out)
            .object()
            .value(QStringLiteral("partitiontable"))
            .toObject()
            .value(QStringLiteral("partitions"))
            .toArray();
    for (const QJsonValue &v : parts) {
        const QString node = v.toObject().value(QStringLiteral("node")).toString();
        out.insert(node.mid(img.size()).toInt(), v.toObject());
    }
    return out;
}

QString sfdiskType(const QString &img, int number)
{
    return sfdiskPartitions(img).value(number).value(QStringLiteral("type")).toString().toLower();
}

// An image laid out by sfdisk from `script`.
QString sfdiskImage(const QTemporaryDir &dir, const QString &name, const QByteArray &script)
{
    const QString img = blankImage(dir, name, 256 * kMiB);
    const ToolResult r = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), img}, script);
    return r.ok() ? img : QString();
}

Operation format(int number, const QString &fs)
{
    Operation op;
    op.type = Operation::Type::Format;
    op.number = number;
    op.filesystem = fs;
    return op;
}

} // namespace

class FormatTypeTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void formatSetsTheTableType_data();
    void formatSetsTheTableType();
    void selectionFollowsTheQueuedOperation();
    void logicalResizeExplainsTheEbr();
    void logicalOfOldFdiskOpensAtItsSize();

private:
    QTemporaryDir m_dir;
};

void FormatTypeTest::formatSetsTheTableType_data()
{
    QTest::addColumn<QByteArray>("script");
    QTest::addColumn<int>("number");
    QTest::addColumn<QString>("fs");
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    const QByteArray mbr = "label: dos\n2048,64MiB,83\n,,5\n,64MiB,b\n,,83\n";
    const QByteArray gpt = "label: gpt\n2048,64MiB\n,64MiB\n";
    const QString linuxGuid = QStringLiteral("0fc63daf-8483-4772-8e79-3d69d8477de4");
    // The types sfdisk -J names (it prints MBR bytes without a leading zero).
    QTest::newRow("MBR Linux to FAT32") << mbr << 1 << "vfat"
                                        << "83"
                                        << "b";
    QTest::newRow("MBR logical FAT to ext4") << mbr << 5 << "ext4"
                                             << "b"
                                             << "83";
    QTest::newRow("MBR logical Linux to exFAT") << mbr << 6 << "exfat"
                                                << "83"
                                                << "7";
    QTest::newRow("MBR Linux to swap") << mbr << 1 << "swap"
                                       << "83"
                                       << "82";
    QTest::newRow("GPT Linux to FAT32")
        << gpt << 1 << "vfat" << linuxGuid << "ebd0a0a2-b9e5-4433-87c0-68b6b72699c7";
    QTest::newRow("GPT Linux to swap")
        << gpt << 2 << "swap" << linuxGuid << "0657fd6d-a4ab-43c4-84e5-0933c84b4f4f";
}

void FormatTypeTest::formatSetsTheTableType()
{
    QFETCH(QByteArray, script);
    QFETCH(int, number);
    QFETCH(QString, fs);
    QFETCH(QString, before);
    QFETCH(QString, after);
    const QString img = sfdiskImage(
        m_dir, QStringLiteral("%1.img").arg(QString::fromLatin1(QTest::currentDataTag())), script);
    QVERIFY(!img.isEmpty());
    QCOMPARE(sfdiskType(img, number), before);
    EditingHarness h(img);
    h.selectRow(rowOf(h.editing->shownLayout(), number));
    QVERIFY(h.editing->queue(format(number, fs)));
    QVERIFY(h.editing->selectedRegion().has_value());
    QCOMPARE(h.editing->selectedRegion()->number, number);
    QString log;
    const ApplyResult r = applyWithDialog(img, h.editing->pending()->operations(), 0, &log);
    QVERIFY2(r.ok, qPrintable(r.error + QLatin1Char('\n') + log));
    QCOMPARE(sfdiskType(img, number), after);
    // The partitions it did not format keep their places and types.
    const QMap<int, QJsonObject> was = sfdiskPartitions(
        sfdiskImage(m_dir, QStringLiteral("again-%1.img").arg(QTest::currentDataTag()), script));
    const QMap<int, QJsonObject> now = sfdiskPartitions(img);
    QCOMPARE(now.keys(), was.keys());
    for (auto it = was.cbegin(); it != was.cend(); ++it) {
        QCOMPARE(now[it.key()].value(QStringLiteral("start")), it->value(QStringLiteral("start")));
        if (it.key() != number)
            QCOMPARE(now[it.key()].value(QStringLiteral("type")),
                     it->value(QStringLiteral("type")));
    }
    const ToolResult blkid =
        runTool(QStringLiteral("blkid"),
                {QStringLiteral("-p"), QStringLiteral("-O"),
                 QString::number(now[number].value(QStringLiteral("start")).toInteger() * 512),
                 QStringLiteral("-s"), QStringLiteral("TYPE"), QStringLiteral("-o"),
                 QStringLiteral("value"), img});
    QCOMPARE(QString::fromUtf8(blkid.out).trimmed(), fs);
}

// A logical partition moved down into free space before it: the selection stays on it (the
// extended partition also holds its old start, and was where the selection went).
void FormatTypeTest::selectionFollowsTheQueuedOperation()
{
    const QString img = sfdiskImage(m_dir, QStringLiteral("select.img"),
                                    "label: dos\n2048,32MiB,83\n,,5\n,32MiB,83\n202752,,83\n");
    QVERIFY(!img.isEmpty());
    const QMap<int, QJsonObject> parts = sfdiskPartitions(img);
    const qint64 sixStart = parts.value(6).value(QStringLiteral("start")).toInteger();
    const qint64 fiveEnd = parts.value(5).value(QStringLiteral("start")).toInteger() +
                           parts.value(5).value(QStringLiteral("size")).toInteger() - 1;
    QVERIFY(sixStart - fiveEnd > 32 * 2048); // sfdisk left 32 MiB free before it
    EditingHarness h(img);
    h.selectRow(rowOf(h.editing->shownLayout(), 6));
    Operation move;
    move.type = Operation::Type::Resize;
    move.number = 6;
    move.startBytes = (fiveEnd + 1 + 8 * 2048) * 512;
    QVERIFY(h.editing->queue(move));
    const PartitionInfo *moved = h.editing->shownLayout().partitionByNumber(6);
    QVERIFY(moved && moved->startSector < sixStart);
    QVERIFY(h.editing->selectedRegion().has_value());
    QCOMPARE(h.editing->selectedRegion()->number, 6);
    QCOMPARE(h.editing->selectedRegion()->kind, PartitionInfo::Kind::Logical);

    // Deleted: the free space it leaves, inside the extended partition, not the extended one.
    Operation del;
    del.type = Operation::Type::Delete;
    del.number = 6;
    QVERIFY(h.editing->queue(del));
    QVERIFY(h.editing->selectedRegion().has_value());
    QVERIFY(h.editing->selectedRegion()->isFree());
    QVERIFY(h.editing->selectedRegion()->insideExtended);
}

void FormatTypeTest::logicalResizeExplainsTheEbr()
{
    const QString img = sfdiskImage(m_dir, QStringLiteral("ebr.img"),
                                    "label: dos\n2048,32MiB,83\n,,5\n,100MiB,83\n");
    QVERIFY(!img.isEmpty());
    EditingHarness h(img);
    const DiskLayout &shown = h.editing->shownLayout();
    for (const int number : {1, 5}) {
        ResizePartitionDialog dialog(shown, {}, shown, *shown.partitionByNumber(number), h.policy);
        dialog.show();
        auto *note = dialog.findChild<QLabel *>(QStringLiteral("ebrNote"));
        QCOMPARE(note != nullptr, number == 5);
        if (!note)
            continue;
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains(QStringLiteral("EBR")) &&
                     note->text().contains(QStringLiteral("1 MiB on the grain")),
                 qPrintable(note->text()));
        dialog.grab().save(screenshotPath(QStringLiteral("resize-logical-ebr-note")));
    }
}

// A logical partition as old fdisk left it, 63 sectors behind its grain: 100 MiB less 63 sectors
// (sfdisk), which the window calls 100.0 MiB. Resize/Move opens at 100 MiB (sfdisk's size to the
// nearest MiB), not 99; free space before set to 0 gives a start a grain later than asked, and the
// summary says it is the EBR's room.
void FormatTypeTest::logicalOfOldFdiskOpensAtItsSize()
{
    // The demo disk (partwise --demo): its EBRs where libparted puts them, 1 MiB free before 6.
    const QString img = m_dir.filePath(QStringLiteral("demo.img"));
    QVERIFY(
        runTool(buildSetting("PARTWISE_CLI"), {QStringLiteral("practice"), QStringLiteral("--size"),
                                               QStringLiteral("512M"), QStringLiteral("demo"), img})
            .ok());
    const QJsonObject six = sfdiskPartitions(img).value(6);
    const qint64 sfdiskBytes = six.value(QStringLiteral("size")).toInteger() * 512;
    QCOMPARE(sfdiskBytes, 100 * kMiB - 63 * 512);
    EditingHarness h(img);
    const DiskLayout &shown = h.editing->shownLayout();
    ResizePartitionDialog dialog(shown, {}, shown, *shown.partitionByNumber(6), h.policy);
    dialog.show();
    auto *size = dialog.findChild<QSpinBox *>(QStringLiteral("size"));
    QVERIFY(size);
    QCOMPARE(size->value(), qRound(double(sfdiskBytes) / kMiB));
    // Untouched, it keeps its exact size: nothing to queue.
    QVERIFY(!dialog.previewedPartition().has_value());
    QCOMPARE(dialog.operation().sizeBytes, sfdiskBytes);

    dialog.setFreeBeforeMiB(0);
    QTRY_VERIFY2(dialog.previewedPartition().has_value(), qPrintable(dialog.previewText()));
    const qint64 asked = dialog.range().lowestStart * 512;
    const qint64 placed = dialog.previewedPartition()->startSector * 512;
    QVERIFY(placed > asked);
    QVERIFY2(dialog.previewText().contains(
                 QStringLiteral("It starts %1 later than the free space before asks")
                     .arg(humanSize(placed - asked))) &&
                 dialog.previewText().contains(QStringLiteral("EBR")),
             qPrintable(dialog.previewText()));
    dialog.grab().save(screenshotPath(QStringLiteral("resize-logical-old-fdisk")));
}

QTEST_MAIN(FormatTypeTest)
#include "tst_formattype.moc"
