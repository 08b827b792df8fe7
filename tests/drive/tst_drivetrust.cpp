// What Partwise trusts once a timing probe has measured a drive: a loop device whose remembered
// measurement (in a store named by PARTWISE_DRIVE_STORE) says 8 KiB physical sectors. check must
// judge against 8 KiB and say so, create must start on an 8 KiB boundary and realign must plan
// to move a partition that is only 4 KiB-aligned. The expected sectors are worked out here from
// the table sfdisk wrote and read back, never from Partwise's own arithmetic.
#include "buildsetting.h"
#include "device/drivemeasurements.h"
#include "ops/applyrunner.h"
#include "ops/planfile.h"
#include "ops/realignrunner.h"

#include "clirun.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace pwtest;

namespace {

// p1 on 1 MiB; p2 at 18440: 18440 × 512 = 9441280 = 2305 × 4096 = 1152.5 × 8192, so on a
// 4 KiB boundary but 4096 bytes past an 8 KiB one. The free space after p2 starts at 34824,
// 4096 bytes past an 8 KiB boundary too.
constexpr qint64 kP2Start = 18440;
constexpr qint64 kFreeStart = kP2Start + 16384;
const char kTable[] = "label: gpt\nfirst-lba: 34\nstart=2048, size=16384\n"
                      "start=18440, size=16384\n";

} // namespace

class DriveTrustTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void withoutMeasurementFourKiBIsAssumed();
    void measuredUnitDecidesCheck();
    void measuredOffsetMovesTheBoundaries();
    void textReportNamesTheSource();
    void smallerMeasurementDoesNotWeakenThePolicy();
    void createStartsOnTheMeasuredUnit();
    void realignPlansForTheMeasuredUnit();

private:
    void remember(qint64 size, qint64 offset);
    QJsonObject checkJson(int expectedExit);

    QTemporaryDir m_dir;
    QString m_image;
    std::unique_ptr<LoopDevice> m_loop;
};

void DriveTrustTest::initTestCase()
{
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
}

void DriveTrustTest::init()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // A fresh, empty store for every test: nothing remembered unless the test says so.
    const QString store = m_dir.filePath(
        QStringLiteral("drives-%1.json").arg(QString::fromLatin1(QTest::currentTestFunction())));
    QFile::remove(store);
    qputenv("PARTWISE_DRIVE_STORE", QFile::encodeName(store));
    m_image = m_dir.filePath(QStringLiteral("trust.img"));
    QFile::remove(m_image);
    QVERIFY(
        runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("32M"), m_image})
            .ok());
    const ToolResult sfdisk =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), m_image}, QByteArray(kTable));
    QVERIFY2(sfdisk.ok(), qPrintable(sfdisk.describe()));
    m_loop = std::make_unique<LoopDevice>(m_image);
    QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
    const SfdiskTable table = SfdiskTable::read(m_loop->path());
    QVERIFY2(table.ok, qPrintable(table.error));
    QCOMPARE(table.starts(), (QList<qint64>{2048, kP2Start}));
}

void DriveTrustTest::cleanup()
{
    if (m_loop && m_loop->ok()) // Apply told the kernel about partitions: drop their nodes
        runTool(QStringLiteral("partx"), {QStringLiteral("-d"), m_loop->path()});
    m_loop.reset();
}

void DriveTrustTest::remember(qint64 size, qint64 offset)
{
    const QString key = driveKey(m_loop->path());
    QVERIFY2(key.startsWith(QLatin1String("loop:")), qPrintable(key));
    DriveMeasurement m;
    m.physicalSectorSize = size;
    m.alignmentOffset = offset;
    m.penaltyRatio = 3.0;
    m.measuredAt = QDateTime::currentDateTimeUtc();
    QString error;
    QVERIFY2(saveDriveMeasurement(key, m, &error), qPrintable(error));
}

QJsonObject DriveTrustTest::checkJson(int expectedExit)
{
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json"), m_loop->path()});
    if (!r.jsonValid || r.exitCode != expectedExit) {
        qWarning("%s", qPrintable(r.describe()));
        return {};
    }
    return r.device(m_loop->path());
}

void DriveTrustTest::withoutMeasurementFourKiBIsAssumed()
{
    const QJsonObject d = checkJson(0);
    QVERIFY(!d.isEmpty());
    QCOMPARE(d.value(QStringLiteral("physical_sector_size_reported")).toInteger(), 512);
    QCOMPARE(d.value(QStringLiteral("physical_sector_size_assumed")).toInteger(), 4096);
    QCOMPARE(d.value(QStringLiteral("physical_sector_source")).toString(),
             QStringLiteral("assumed"));
    QVERIFY(d.value(QStringLiteral("physical_sector_size_measured")).isNull());
    QVERIFY(d.value(QStringLiteral("alignment_offset_measured")).isNull());
    // A loop device has no drive to ask: null, and the drive object says why.
    QVERIFY(d.value(QStringLiteral("physical_sector_size_drive")).isNull());
    const QJsonObject drive = d.value(QStringLiteral("drive")).toObject();
    QCOMPARE(drive.value(QStringLiteral("answered")).toBool(true), false);
    QVERIFY2(drive.value(QStringLiteral("reason")).toString().contains(QLatin1String("loop")),
             qPrintable(drive.value(QStringLiteral("reason")).toString()));
    QCOMPARE(partitionByNumber(d, 2).value(QStringLiteral("status")).toString(),
             QStringLiteral("sector-aligned"));
}

void DriveTrustTest::measuredUnitDecidesCheck()
{
    remember(8192, 0);
    const QJsonObject d = checkJson(1); // something misaligned
    QVERIFY(!d.isEmpty());
    QCOMPARE(d.value(QStringLiteral("physical_sector_source")).toString(),
             QStringLiteral("measured"));
    QCOMPARE(d.value(QStringLiteral("physical_sector_size_assumed")).toInteger(), 8192);
    QCOMPARE(d.value(QStringLiteral("physical_sector_size_measured")).toInteger(), 8192);
    QCOMPARE(d.value(QStringLiteral("alignment_offset_measured")).toInteger(-1), 0);
    QCOMPARE(d.value(QStringLiteral("physical_sector_size_reported")).toInteger(), 512);

    const QJsonObject p1 = partitionByNumber(d, 1);
    QCOMPARE(p1.value(QStringLiteral("status")).toString(), QStringLiteral("aligned"));
    const QJsonObject p2 = partitionByNumber(d, 2);
    QCOMPARE(p2.value(QStringLiteral("status")).toString(), QStringLiteral("misaligned"));
    QCOMPARE(p2.value(QStringLiteral("misalignment_bytes")).toInteger(), kP2Start * 512 % 8192);
    QCOMPARE(p2.value(QStringLiteral("misalignment_bytes")).toInteger(), 4096);
}

void DriveTrustTest::measuredOffsetMovesTheBoundaries()
{
    // Physical sectors of 8 KiB beginning at byte 4096, and the grain's boundaries with them:
    // p1 (byte 1048576) is 4096 past one; p2 (byte 9441280 = 4096 + 9 × 1048576) sits on one
    // and on the 1 MiB grain too.
    remember(8192, 4096);
    const QJsonObject d = checkJson(1);
    QVERIFY(!d.isEmpty());
    QCOMPARE(d.value(QStringLiteral("alignment_offset_measured")).toInteger(), 4096);
    QCOMPARE(d.value(QStringLiteral("alignment_offset")).toInteger(-1), 0); // the kernel's
    const QJsonObject p1 = partitionByNumber(d, 1);
    QCOMPARE(p1.value(QStringLiteral("status")).toString(), QStringLiteral("misaligned"));
    QCOMPARE(p1.value(QStringLiteral("misalignment_bytes")).toInteger(),
             (2048 * 512 - 4096) % 8192);
    QCOMPARE((kP2Start * 512 - 4096) % (1 << 20), 0);
    QCOMPARE(partitionByNumber(d, 2).value(QStringLiteral("status")).toString(),
             QStringLiteral("aligned"));
}

void DriveTrustTest::textReportNamesTheSource()
{
    remember(8192, 0);
    const CliResult r = runCli({QStringLiteral("check"), m_loop->path()});
    QCOMPARE(r.exitCode, 1);
    const QString text = QString::fromUtf8(r.out);
    QVERIFY2(text.contains(QLatin1String("physical sector: drive reports nothing, measured 8192 "
                                         "B at offset 0 B, Partwise assumes 8192 B (measured)")),
             qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("drive: not asked: ") + m_loop->path() +
                           QLatin1String(" is a loop device")),
             qPrintable(text));
}

void DriveTrustTest::smallerMeasurementDoesNotWeakenThePolicy()
{
    // A probe that found 512-byte behaviour (a cache hiding the penalty) is shown but not used.
    remember(512, 0);
    const QJsonObject d = checkJson(0);
    QVERIFY(!d.isEmpty());
    QCOMPARE(d.value(QStringLiteral("physical_sector_size_measured")).toInteger(), 512);
    QCOMPARE(d.value(QStringLiteral("physical_sector_size_assumed")).toInteger(), 4096);
    QCOMPARE(d.value(QStringLiteral("physical_sector_source")).toString(),
             QStringLiteral("assumed"));
}

void DriveTrustTest::createStartsOnTheMeasuredUnit()
{
    remember(8192, 0);
    // "align":"4k" asks for the physical sector: with 8 KiB measured, the first 8 KiB boundary
    // at or after the free space's start (34824 × 512 = 2176.5 × 8192) is 2177 × 16 = 34832.
    QList<Operation> ops;
    QString error;
    const QByteArray plan = QStringLiteral(R"({"operations":[{"op":"create","size":"1MiB",
        "start":%1,"align":"4k"}]})")
                                .arg(kFreeStart * 512)
                                .toUtf8();
    QVERIFY2(parsePlan(plan, &ops, &error), qPrintable(error));
    ApplyOptions options;
    options.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    options.journalFolder = m_dir.filePath(QStringLiteral("journals"));
    const ApplyResult r = applyOperations(m_loop->path(), ops, options);
    QVERIFY2(r.ok, qPrintable(r.error));

    const SfdiskTable after = SfdiskTable::read(m_loop->path());
    QVERIFY2(after.ok, qPrintable(after.error));
    const SfdiskPartition *p3 = after.find(3);
    QVERIFY(p3);
    const qint64 expected = (kFreeStart * 512 + 8191) / 8192 * 8192 / 512;
    QCOMPARE(expected, 34832);
    QCOMPARE(p3->start, expected);
    QCOMPARE(p3->start * 512 % 8192, 0);
    QVERIFY(p3->start * 512 % 4096 == 0 && kFreeStart * 512 % 8192 != 0);
}

void DriveTrustTest::realignPlansForTheMeasuredUnit()
{
    // Without a measurement partition 2 is on a 4 KiB sector: nothing misaligned to realign.
    {
        const PreparedRealign none = prepareRealignment(m_loop->path(), {}, {});
        QVERIFY2(none.ok || !none.error.isEmpty(), "prepareRealignment said nothing");
        QVERIFY(none.plan.moves.isEmpty());
    }
    remember(8192, 0);
    const PreparedRealign prepared = prepareRealignment(m_loop->path(), {}, {});
    QVERIFY2(prepared.ok, qPrintable(prepared.error));
    bool movesP2 = false;
    for (const PartitionMove &m : prepared.plan.moves) {
        if (m.number != 2)
            continue;
        movesP2 = true;
        QCOMPARE(m.oldStart, kP2Start);
        QCOMPARE(m.newStart * 512 % 8192, 0);
    }
    QVERIFY2(movesP2, "the realignment plan does not move partition 2");
}

QTEST_GUILESS_MAIN(DriveTrustTest)
#include "tst_drivetrust.moc"
