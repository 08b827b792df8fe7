// A realignment's plan and result as the helper sends them (ops/realignjson): a plan made for a
// real image (sfdisk's table, an ext4 made by mke2fs, a swap made by mkswap) comes back from its
// JSON field for field, its moves where sfdisk says the partitions start and its new starts on
// the grain; and a plan or result whose fields are of the wrong type, out of the disk, out of
// order or unknown is refused with the field named, never half used.
#include "ops/realignjson.h"
#include "report/layoutjson.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace pwtest;

namespace {

constexpr qint64 MiB = 1 << 20;

// 64 MiB, MBR: 1 ext4 from sector 63, 2 raw with free space on both sides, 3 swap, 4 on the
// grain already (asked for, so skipped).
const QByteArray kScript = "label: dos\n"
                           "start=63, size=32705, type=83\n"
                           "start=40001, size=16384, type=83\n"
                           "start=80001, size=8192, type=82\n"
                           "start=98304, size=2048, type=83\n";

// Copies `file` into `image` from sector `start` (512-byte sectors).
bool copyInto(const QString &file, const QString &image, qint64 start)
{
    QFile in(file);
    QFile out(image);
    return in.open(QIODevice::ReadOnly) && out.open(QIODevice::ReadWrite) &&
           out.seek(start * 512) && out.write(in.readAll()) == in.size();
}

// Travels as text, as it does between the helper and the window.
QJsonObject throughText(const QJsonObject &json)
{
    return QJsonDocument::fromJson(QJsonDocument(json).toJson(QJsonDocument::Compact)).object();
}

// `root` with the value at `path` (object keys, or array indices as numbers) replaced.
QJsonValue replaced(const QJsonValue &root, QStringList path, const QJsonValue &value)
{
    if (path.isEmpty())
        return value;
    const QString step = path.takeFirst();
    if (root.isArray()) {
        QJsonArray array = root.toArray();
        const int i = step.toInt();
        array[i] = replaced(array[i], path, value);
        return array;
    }
    QJsonObject object = root.toObject();
    if (path.isEmpty() && value.isUndefined())
        object.remove(step);
    else
        object[step] = replaced(object.value(step), path, value);
    return object;
}

void compareMoves(const QList<PartitionMove> &a, const QList<PartitionMove> &b)
{
    QCOMPARE(b.size(), a.size());
    for (int i = 0; i < a.size(); ++i) {
        QCOMPARE(b[i].number, a[i].number);
        QCOMPARE(b[i].kind, a[i].kind);
        QCOMPARE(b[i].filesystem, a[i].filesystem);
        QCOMPARE(b[i].label, a[i].label);
        QCOMPARE(b[i].uuid, a[i].uuid);
        QCOMPARE(b[i].oldStart, a[i].oldStart);
        QCOMPARE(b[i].oldEnd, a[i].oldEnd);
        QCOMPARE(b[i].newStart, a[i].newStart);
        QCOMPARE(b[i].newEnd, a[i].newEnd);
        QCOMPARE(b[i].shrinkSectors, a[i].shrinkSectors);
        QCOMPARE(b[i].recreateSwap, a[i].recreateSwap);
        QCOMPARE(b[i].grow, a[i].grow);
    }
}

} // namespace

class TestRealignJson : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void planComesBackWhole();
    void planAgreesWithSfdisk();
    void failedPlanComesBack();
    void damagedPlansAreRefused_data();
    void damagedPlansAreRefused();
    void resultComesBack();
    void damagedResultsAreRefused();

private:
    QTemporaryDir m_dir;
    QString m_image;
    PreparedRealign m_prepared;
    QJsonObject m_json;
};

void TestRealignJson::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_image = m_dir.filePath(QStringLiteral("plan.img"));
    QString error;
    QVERIFY2(SfdiskTable::writeImage(m_image, 64 * MiB, kScript, &error), qPrintable(error));
    const ToolResult ext4 =
        runTool(QStringLiteral("mke2fs"),
                {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-t"),
                 QStringLiteral("ext4"), QStringLiteral("-L"), QStringLiteral("root"),
                 QStringLiteral("-E"), QStringLiteral("offset=%1").arg(63 * 512), m_image,
                 QStringLiteral("%1k").arg(32705 * 512 / 1024)});
    QVERIFY2(ext4.ok(), qPrintable(ext4.describe()));
    const QString swap = m_dir.filePath(QStringLiteral("swap"));
    QFile file(swap);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(4 * MiB));
    file.close();
    const ToolResult mkswap =
        runTool(QStringLiteral("mkswap"), {QStringLiteral("-L"), QStringLiteral("swap"), swap});
    QVERIFY2(mkswap.ok(), qPrintable(mkswap.describe()));
    QVERIFY(copyInto(swap, m_image, 80001));

    RealignOptions options;
    options.journalPath = m_dir.filePath(QStringLiteral("plan.journal"));
    RealignRequest request;
    request.partitions = {1, 2, 3, 4};
    request.includeSectorAligned = true;
    request.prefer = RealignPreference::Move;
    request.ways.insert(2, RealignWay::MoveDown);
    m_prepared = prepareRealignment(m_image, options, request);
    QVERIFY2(m_prepared.ok, qPrintable(m_prepared.error));
    QCOMPARE(m_prepared.plan.moves.size(), 3);
    m_json = preparedRealignToJson(m_prepared);
}

void TestRealignJson::planComesBackWhole()
{
    PreparedRealign back;
    QString error;
    QVERIFY2(preparedRealignFromJson(throughText(m_json), &back, &error), qPrintable(error));
    QCOMPARE(QJsonDocument(preparedRealignToJson(back)).toJson(), QJsonDocument(m_json).toJson());

    const PreparedRealign &a = m_prepared;
    QCOMPARE(back.ok, a.ok);
    QCOMPARE(back.layout.regions.size(), a.layout.regions.size());
    QCOMPARE(back.layout.device.lengthSectors, a.layout.device.lengthSectors);
    compareMoves(a.plan.moves, back.plan.moves);
    QCOMPARE(back.plan.choices.size(), a.plan.choices.size());
    for (int c = 0; c < a.plan.choices.size(); ++c) {
        const RealignChoice &x = a.plan.choices[c];
        const RealignChoice &y = back.plan.choices[c];
        QCOMPARE(y.number, x.number);
        QCOMPARE(y.chosen, x.chosen);
        QCOMPARE(y.options.size(), x.options.size());
        for (int o = 0; o < x.options.size(); ++o) {
            QCOMPARE(y.options[o].way, x.options[o].way);
            QCOMPARE(y.options[o].bytesToMove, x.options[o].bytesToMove);
            QCOMPARE(y.options[o].shrinkBytes, x.options[o].shrinkBytes);
            compareMoves(x.options[o].moves, y.options[o].moves);
        }
    }
    QCOMPARE(back.plan.skipped.size(), 1);
    QCOMPARE(back.plan.skipped.first().number, 4);
    QCOMPARE(back.plan.skipped.first().reason, a.plan.skipped.first().reason);
    QCOMPARE(back.plan.bytesInUse, a.plan.bytesInUse);
    const AlignmentGeometry &g = a.plan.geometry;
    QCOMPARE(back.plan.geometry.grainBytes, g.grainBytes);
    QCOMPARE(back.plan.geometry.logicalSectorSize, g.logicalSectorSize);
    QCOMPARE(back.plan.geometry.physicalAssumed, g.physicalAssumed);
    QCOMPARE(back.plan.geometry.physicalSource, g.physicalSource);
    QCOMPARE(back.plan.geometry.alignmentOffset, g.alignmentOffset);
    QCOMPARE(back.request.partitions, a.request.partitions);
    QCOMPARE(back.request.includeSectorAligned, true);
    QCOMPARE(back.request.prefer, RealignPreference::Move);
    QCOMPARE(back.request.ways, a.request.ways);
    QCOMPARE(back.copiedWhole, a.copiedWhole);
    QVERIFY(back.copiedWhole.contains(2)); // raw: no map of its blocks
    QCOMPARE(back.layerNotes, a.layerNotes);
    QCOMPARE(back.driveHealth.status, a.driveHealth.status);
    QCOMPARE(back.driveHealth.findings, a.driveHealth.findings);
    QCOMPARE(back.journalPath, m_dir.filePath(QStringLiteral("plan.journal")));
    QCOMPARE(back.journal.survivesPowerCut, a.journal.survivesPowerCut);
    QCOMPARE(back.journal.filesystem, a.journal.filesystem);
    QCOMPARE(back.journal.warning, a.journal.warning);
    QCOMPARE(back.plan.totalBytes(), a.plan.totalBytes());
}

// The expected values come from sfdisk, mke2fs and mkswap, not from the planner.
void TestRealignJson::planAgreesWithSfdisk()
{
    const SfdiskTable table = SfdiskTable::read(m_image);
    QVERIFY2(table.ok, qPrintable(table.error));
    PreparedRealign back;
    QString error;
    QVERIFY2(preparedRealignFromJson(throughText(m_json), &back, &error), qPrintable(error));
    for (const PartitionMove &m : back.plan.moves) {
        const SfdiskPartition *p = table.find(m.number);
        QVERIFY(p);
        QCOMPARE(m.oldStart, p->start);
        QCOMPARE(m.oldEnd, p->end());
        QCOMPARE(m.newStart % 2048, 0);
        QCOMPARE(m.newLength(), p->size);
    }
    const auto moveOf = [&](int number) {
        for (const PartitionMove &m : back.plan.moves)
            if (m.number == number)
                return m;
        return PartitionMove();
    };
    QCOMPARE(moveOf(1).filesystem, QStringLiteral("ext4"));
    QCOMPARE(moveOf(1).label, QStringLiteral("root"));
    QCOMPARE(moveOf(2).newStart, 40001 / 2048 * 2048); // move-down, as the request asked
    QVERIFY(moveOf(3).recreateSwap);
    QCOMPARE(moveOf(3).label, QStringLiteral("swap"));
    const ToolResult blkid = runTool(
        QStringLiteral("blkid"),
        {QStringLiteral("-p"), QStringLiteral("-s"), QStringLiteral("UUID"), QStringLiteral("-o"),
         QStringLiteral("value"), QStringLiteral("-O"), QString::number(80001 * 512), m_image});
    QCOMPARE(moveOf(3).uuid, QString::fromUtf8(blkid.out).trimmed());
}

void TestRealignJson::failedPlanComesBack()
{
    PreparedRealign failed;
    failed.error = QStringLiteral("/dev/nothing cannot be opened.");
    PreparedRealign back;
    back.ok = true;
    QString error;
    QVERIFY2(preparedRealignFromJson(throughText(preparedRealignToJson(failed)), &back, &error),
             qPrintable(error));
    QVERIFY(!back.ok);
    QCOMPARE(back.error, failed.error);
    QVERIFY(back.plan.isEmpty());
}

void TestRealignJson::damagedPlansAreRefused_data()
{
    QTest::addColumn<QStringList>("path");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("named");
    const auto split = [](const char *path) {
        return QString::fromLatin1(path).split(QLatin1Char('/'));
    };
    const QJsonObject move = m_json[QStringLiteral("plan")][QStringLiteral("moves")][0].toObject();
    const qint64 length = m_prepared.layout.device.lengthSectors;
    const int options = int(m_prepared.plan.choices.first().options.size());
    const QJsonValue absent;
    QTest::newRow("ok a string") << split("ok") << QJsonValue(QStringLiteral("yes")) << "\"ok\"";
    QTest::newRow("no layout") << split("layout") << absent << "\"layout\"";
    QTest::newRow("region ends before it starts")
        << split("layout/regions/1/end_sector") << QJsonValue(0) << "end_sector";
    QTest::newRow("no plan") << split("plan") << QJsonValue(7) << "\"plan\"";
    QTest::newRow("negative sector")
        << split("plan/moves/0/new_start") << QJsonValue(-2048) << "new_start";
    QTest::newRow("end before start")
        << split("plan/moves/0/new_end")
        << QJsonValue(move[QStringLiteral("new_start")].toInteger() - 1) << "new_end";
    QTest::newRow("past the disk")
        << split("plan/moves/0/old_start") << QJsonValue(double(length)) << "old_start";
    QTest::newRow("sector a string")
        << split("plan/moves/0/old_end") << QJsonValue(QStringLiteral("100")) << "old_end";
    QTest::newRow("fractional sector")
        << split("plan/moves/0/new_start") << QJsonValue(2048.5) << "new_start";
    QTest::newRow("partition 0") << split("plan/moves/0/number") << QJsonValue(0) << "number";
    QTest::newRow("partition 300") << split("plan/moves/0/number") << QJsonValue(300) << "number";
    QTest::newRow("free space moves")
        << split("plan/moves/0/kind") << QJsonValue(QStringLiteral("free")) << "kind";
    QTest::newRow("shrink beyond the partition")
        << split("plan/moves/0/shrink_sectors") << QJsonValue(double(length)) << "shrink_sectors";
    QTest::newRow("too many moves")
        << split("plan/moves") << QJsonValue(QJsonArray::fromVariantList(QVariantList(5000, 0)))
        << "moves";
    QTest::newRow("moves an object") << split("plan/moves") << QJsonValue(move) << "moves";
    QTest::newRow("chosen out of range")
        << split("plan/choices/0/chosen") << QJsonValue(options) << "chosen";
    QTest::newRow("chosen negative")
        << split("plan/choices/0/chosen") << QJsonValue(-1) << "chosen";
    QTest::newRow("no options") << split("plan/choices/0/options") << QJsonValue(QJsonArray())
                                << "options";
    QTest::newRow("unknown way") << split("plan/choices/0/options/0/way")
                                 << QJsonValue(QStringLiteral("teleport")) << "way";
    QTest::newRow("option's move past the disk")
        << split("plan/choices/0/options/0/moves/0/new_end") << QJsonValue(double(length))
        << "new_end";
    QTest::newRow("negative bytes")
        << split("plan/choices/0/options/0/bytes_to_move") << QJsonValue(-5) << "bytes_to_move";
    QTest::newRow("unknown source") << split("plan/geometry/physical_source")
                                    << QJsonValue(QStringLiteral("guessed")) << "physical_source";
    QTest::newRow("grain not whole sectors")
        << split("plan/geometry/grain_bytes") << QJsonValue(1000) << "grain_bytes";
    QTest::newRow("sector size not the layout's")
        << split("plan/geometry/logical_sector_size") << QJsonValue(4096) << "logical_sector_size";
    QTest::newRow("bytes in use of no partition")
        << split("plan/bytes_in_use") << QJsonValue(QJsonObject{{"two", 5}}) << "bytes_in_use";
    QTest::newRow("skip of partition 0")
        << split("plan/skipped/0/number") << QJsonValue(0) << "number";
    QTest::newRow("unknown preference")
        << split("request/prefer") << QJsonValue(QStringLiteral("fastest")) << "prefer";
    QTest::newRow("unknown way asked")
        << split("request/ways") << QJsonValue(QJsonObject{{"2", "sideways"}}) << "ways";
    QTest::newRow("partitions not numbers")
        << split("request/partitions") << QJsonValue(QJsonArray{"1"}) << "partitions";
    QTest::newRow("copied whole of partition 0")
        << split("copied_whole") << QJsonValue(QJsonObject{{"0", "why"}}) << "copied_whole";
    QTest::newRow("unknown health")
        << split("drive_health/status") << QJsonValue(QStringLiteral("fine")) << "status";
    QTest::newRow("durability a number")
        << split("journal_durability/survives_power_cut") << QJsonValue(1) << "survives_power_cut";
    QTest::newRow("journal path a number")
        << split("journal_path") << QJsonValue(1) << "journal_path";
}

void TestRealignJson::damagedPlansAreRefused()
{
    QFETCH(QStringList, path);
    QFETCH(QJsonValue, value);
    QFETCH(QString, named);
    const QJsonObject damaged = replaced(m_json, path, value).toObject();
    QVERIFY(damaged != m_json);
    PreparedRealign out;
    out.error = QStringLiteral("untouched");
    QString error;
    QVERIFY2(!preparedRealignFromJson(throughText(damaged), &out, &error),
             qPrintable(path.join(QLatin1Char('/'))));
    QVERIFY2(error.contains(named), qPrintable(error));
    QCOMPARE(out.error, QStringLiteral("untouched")); // nothing half used
}

void TestRealignJson::resultComesBack()
{
    RealignResult result;
    result.resumable = true;
    result.error = QStringLiteral("Cancelled; resume finishes it.");
    result.journalPath = m_dir.filePath(QStringLiteral("plan.journal"));
    result.checks = {QStringLiteral("partition 1 (ext4): clean")};
    result.shrinkRefused = 2;
    const QJsonObject json = realignResultToJson(result);
    // The protocol's keys since version 1, and the new one.
    for (const char *key : {"ok", "resumable", "error", "journal", "checks", "shrink_refused"})
        QVERIFY2(json.contains(QLatin1String(key)), key);
    RealignResult back;
    QString error;
    QVERIFY2(realignResultFromJson(throughText(json), &back, &error), qPrintable(error));
    QCOMPARE(back.ok, false);
    QCOMPARE(back.resumable, true);
    QCOMPARE(back.error, result.error);
    QCOMPARE(back.journalPath, result.journalPath);
    QCOMPARE(back.checks, result.checks);
    QCOMPARE(back.shrinkRefused, 2);
}

void TestRealignJson::damagedResultsAreRefused()
{
    RealignResult ok;
    ok.ok = true;
    const QJsonObject good = realignResultToJson(ok);
    const QList<std::tuple<const char *, QJsonValue>> cases{
        {"ok", QJsonValue(1)},
        {"resumable", QJsonValue(QStringLiteral("no"))},
        {"error", QJsonValue(QJsonArray())},
        {"journal", QJsonValue()},
        {"checks", QJsonValue(QJsonArray{1})},
        {"shrink_refused", QJsonValue(-1)},
        {"shrink_refused", QJsonValue(257)}};
    for (const auto &[key, value] : cases) {
        const QJsonObject damaged = replaced(good, {QLatin1String(key)}, value).toObject();
        RealignResult out;
        out.error = QStringLiteral("untouched");
        QString error;
        QVERIFY2(!realignResultFromJson(damaged, &out, &error), key);
        QVERIFY2(error.contains(QLatin1String(key)), qPrintable(error));
        QCOMPARE(out.error, QStringLiteral("untouched"));
    }
}

QTEST_GUILESS_MAIN(TestRealignJson)
#include "tst_realignjson.moc"
