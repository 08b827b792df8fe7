// A disk copy's plan, progress and result as the helper sends them (ops/copyplanjson.h), read
// back by the window: what was sent comes back, and a field of the wrong type or out of range
// refuses the whole object with the field named.
#include "ops/copyids.h"
#include "ops/copyplanjson.h"

#include <QJsonArray>
#include <QtTest>

using namespace partwise;

namespace {

CopyPlan samplePlan()
{
    CopyPlan plan;
    plan.source = QStringLiteral("/dev/sdb");
    plan.target = QStringLiteral("/home/a/new.img");
    plan.targetSizeBytes = qint64(256) << 20; // 524288 sectors
    plan.sourceTable = plan.targetTable = QStringLiteral("msdos");
    plan.growth = CopyGrowth::GrowLast;
    plan.newIds = true;
    plan.diskId = QStringLiteral("8a140d85");
    CopyPartitionPlan ntfs;
    ntfs.sourceNumber = ntfs.targetNumber = 1;
    ntfs.filesystem = QStringLiteral("ntfs");
    ntfs.label = QStringLiteral("WINXP");
    ntfs.flags = {QStringLiteral("boot")};
    ntfs.typeId = QStringLiteral("07");
    ntfs.oldStart = 63;
    ntfs.oldEnd = 224909;
    ntfs.newStart = 2048;
    ntfs.newEnd = 524287;
    ntfs.data = CopyData::UsedBlocks;
    ntfs.bytesToCopy = 2936832;
    plan.partitions << ntfs;
    plan.bytesToCopy = 2936832;
    plan.estimatedSeconds = 0.5;
    plan.bootFixes = {QStringLiteral("The MBR's boot code is copied.")};
    plan.refused = {QStringLiteral("no room")};
    return plan;
}

QJsonObject partitionOf(const QJsonObject &plan)
{
    return plan.value(QStringLiteral("partitions")).toArray().first().toObject();
}

QJsonObject withPartition(QJsonObject plan, const QJsonObject &partition)
{
    plan[QStringLiteral("partitions")] = QJsonArray{partition};
    return plan;
}

} // namespace

class TestCopyPlanJson : public QObject
{
    Q_OBJECT

private slots:
    void planComesBackAsSent();
    void wrongFieldsRefuseThePlan_data();
    void wrongFieldsRefuseThePlan();
    void expectMatchesOnlyTheSamePlacement();
    void progressIsClamped();
    void resultComesBackAsSent();
    void idsComeBackAsSent();
    void wrongIdsAreRefused_data();
    void wrongIdsAreRefused();
};

void TestCopyPlanJson::planComesBackAsSent()
{
    CopyPlan back;
    QString error;
    QVERIFY2(copyPlanFromJson(copyPlanToJson(samplePlan()), &back, &error), qPrintable(error));
    QCOMPARE(back.target, QStringLiteral("/home/a/new.img"));
    QCOMPARE(back.growth, CopyGrowth::GrowLast);
    QVERIFY(back.newIds);
    QCOMPARE(back.partitions.size(), 1);
    const CopyPartitionPlan &p = back.partitions.first();
    QCOMPARE(p.oldStart, 63);
    QCOMPARE(p.newStart, 2048);
    QCOMPARE(p.newEnd, 524287);
    QCOMPARE(p.data, CopyData::UsedBlocks);
    QCOMPARE(p.label, QStringLiteral("WINXP"));
    QCOMPARE(p.flags, QStringList{QStringLiteral("boot")});
    QCOMPARE(back.refused, QStringList{QStringLiteral("no room")});
    QVERIFY(!back.ok());
    QCOMPARE(back.bootFixes.size(), 1);
}

void TestCopyPlanJson::wrongFieldsRefuseThePlan_data()
{
    QTest::addColumn<QJsonObject>("json");
    QTest::addColumn<QString>("named");
    const QJsonObject good = copyPlanToJson(samplePlan());
    const QJsonObject part = partitionOf(good);
    auto set = [](QJsonObject o, const char *key, const QJsonValue &v) {
        o[QLatin1String(key)] = v;
        return o;
    };
    QTest::newRow("sector size 1000") << set(good, "target_sector_size", 1000) << "sector size";
    QTest::newRow("table") << set(good, "target_table", "bsd") << "tables";
    QTest::newRow("growth") << set(good, "growth", "double") << "growth";
    QTest::newRow("grain as text") << set(good, "grain_bytes", "1M") << "grain_bytes";
    QTest::newRow("partitions not objects")
        << set(good, "partitions", QJsonArray{1, 2}) << "partitions";
    QTest::newRow("past the target")
        << withPartition(good, set(part, "new_end", 524288)) << "new_end";
    QTest::newRow("end before start")
        << withPartition(good, set(part, "new_end", 2047)) << "new_end";
    QTest::newRow("number 0") << withPartition(good, set(part, "source_number", 0))
                              << "source_number";
    QTest::newRow("number 129") << withPartition(good, set(part, "target_number", 129))
                                << "target_number";
    QTest::newRow("data") << withPartition(good, set(part, "data", "everything")) << "data";
    QTest::newRow("kind free") << withPartition(good, set(part, "kind", "free")) << "kind";
    QTest::newRow("refused not strings") << set(good, "refused", QJsonArray{1}) << "refused";
    QTest::newRow("negative bytes") << set(good, "bytes_to_copy", -1) << "bytes_to_copy";
    // Doubles past qint64 (a request is JSON): refused before any conversion, which would be
    // undefined behaviour (the sanitizer build aborts on it).
    QTest::newRow("start 1e300") << withPartition(good, set(part, "new_start", 1e300))
                                 << "new_start";
    QTest::newRow("bytes 2^63") << set(good, "bytes_to_copy", 9223372036854775808.0)
                                << "bytes_to_copy";
    QTest::newRow("gap -1e300") << set(good, "gap_sectors", -1e300) << "gap_sectors";
}

void TestCopyPlanJson::wrongFieldsRefuseThePlan()
{
    QFETCH(QJsonObject, json);
    QFETCH(QString, named);
    CopyPlan back;
    back.source = QStringLiteral("untouched");
    QString error;
    QVERIFY(!copyPlanFromJson(json, &back, &error));
    QVERIFY2(error.contains(named), qPrintable(error));
    QCOMPARE(back.source, QStringLiteral("untouched"));
}

void TestCopyPlanJson::expectMatchesOnlyTheSamePlacement()
{
    const CopyPlan plan = samplePlan();
    QString problem;
    QVERIFY(copyMatchesExpect(copyExpectJson(plan), plan, &problem));
    QVERIFY(problem.isEmpty());
    CopyPlan moved = plan;
    moved.partitions.first().newStart = 4096;
    QVERIFY(!copyMatchesExpect(copyExpectJson(plan), moved, &problem));
    QVERIFY(problem.isEmpty()); // a fair request, another plan
    QVERIFY(!copyMatchesExpect(QJsonArray{}, plan, &problem));
    QVERIFY(!copyMatchesExpect(QJsonValue(QStringLiteral("all")), plan, &problem));
    QVERIFY(!problem.isEmpty());
    QVERIFY(!copyMatchesExpect(QJsonArray{QJsonObject{{"number", 1}, {"new_start", "2048"}}}, plan,
                               &problem));
    QVERIFY(!problem.isEmpty());
    QVERIFY(!copyMatchesExpect(
        QJsonArray{QJsonObject{{"number", 1e300}, {"new_start", 2048}, {"new_end", 4095}}}, plan,
        &problem));
    QVERIFY2(problem.contains(QStringLiteral("number")), qPrintable(problem));
}

void TestCopyPlanJson::progressIsClamped()
{
    const CopyProgress p = copyProgressFromJson(QJsonObject{
        {"partition", 1e9}, {"partition_index", -5}, {"bytes_done", 1e30}, {"step", "verifying"}});
    QCOMPARE(p.partition, 128);
    QCOMPARE(p.partitionIndex, 0);
    QVERIFY(p.bytesDone <= quint64(1e18));
    QCOMPARE(p.stepKind, CopyProgress::Step::Verifying);
}

void TestCopyPlanJson::resultComesBackAsSent()
{
    CopyResult result;
    result.resumable = true;
    result.error = QStringLiteral("cancelled");
    result.journalPath = QStringLiteral("/var/lib/partwise/moves/sdc.copy");
    result.checks = {QStringLiteral("partition 1 (ntfs): clean")};
    CopyResult back;
    QString error;
    QVERIFY2(copyResultFromJson(copyResultToJson(result), &back, &error), qPrintable(error));
    QVERIFY(!back.ok && back.resumable);
    QCOMPARE(back.journalPath, result.journalPath);
    QCOMPARE(back.checks, result.checks);
    QJsonObject wrong = copyResultToJson(result);
    wrong[QStringLiteral("ok")] = QStringLiteral("yes");
    QVERIFY(!copyResultFromJson(wrong, &back, &error));
    QVERIFY2(error.contains(QStringLiteral("ok")), qPrintable(error));
}

// The ids a window sends with a copy (ops/copyids.h), read as the helper reads them.
void TestCopyPlanJson::idsComeBackAsSent()
{
    CopyIds ids;
    ids.diskId = QStringLiteral("1b2c3d4e");
    ids.uuids[1] = QStringLiteral("0123456789ABCDEF");                     // NTFS
    ids.uuids[5] = QStringLiteral("B06D-9B03");                            // FAT
    ids.uuids[6] = QStringLiteral("3f0c2b11-4d6e-4f7a-8a9b-0c1d2e3f4a5b"); // ext4
    CopyIds back;
    QCOMPARE(readCopyIds(copyIdsToJson(ids), &back), QString());
    QCOMPARE(back.diskId, ids.diskId);
    QCOMPARE(back.uuids, ids.uuids);
    QVERIFY(back.partitionGuids.isEmpty());
}

void TestCopyPlanJson::wrongIdsAreRefused_data()
{
    QTest::addColumn<QByteArray>("json");
    const QByteArray guid = "3f0c2b11-4d6e-4f7a-8a9b-0c1d2e3f4a5b";
    QTest::newRow("no disk id") << QByteArray(R"({"partitions":[]})");
    QTest::newRow("disk id a command") << QByteArray(R"({"disk_id":"0; reboot","partitions":[]})");
    QTest::newRow("disk id too long") << QByteArray(R"({"disk_id":"1b2c3d4e5","partitions":[]})");
    QTest::newRow("number 0") << R"({"disk_id":"1b2c3d4e","partitions":[{"number":0,"uuid":")" +
                                     guid + R"("}]})";
    QTest::newRow("number 129") << R"({"disk_id":"1b2c3d4e","partitions":[{"number":129,"uuid":")" +
                                       guid + R"("}]})";
    QTest::newRow("twice") << R"({"disk_id":"1b2c3d4e","partitions":[{"number":2,"uuid":")" + guid +
                                  R"("},{"number":2,"partition_guid":")" + guid + R"("}]})";
    QTest::newRow("uuid with a newline")
        << R"({"disk_id":"1b2c3d4e","partitions":[{"number":2,"uuid":")" + guid + R"(\n"}]})";
    QTest::newRow("uuid upper case")
        << R"({"disk_id":"1b2c3d4e","partitions":[{"number":2,"uuid":")" + guid.toUpper() +
               R"("}]})";
    QTest::newRow("guid not a guid")
        << QByteArray(R"({"disk_id":"1b2c3d4e","partitions":[{"number":2,"partition_guid":"x"}]})");
    QTest::newRow("uuid a number")
        << QByteArray(R"({"disk_id":"1b2c3d4e","partitions":[{"number":2,"uuid":7}]})");
}

void TestCopyPlanJson::wrongIdsAreRefused()
{
    QFETCH(QByteArray, json);
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    QVERIFY2(doc.isObject(), json.constData());
    CopyIds ids;
    ids.diskId = QStringLiteral("untouched");
    QVERIFY(!readCopyIds(doc.object(), &ids).isEmpty());
    QCOMPARE(ids.diskId, QStringLiteral("untouched"));
}

QTEST_MAIN(TestCopyPlanJson)
#include "tst_copyplanjson.moc"
