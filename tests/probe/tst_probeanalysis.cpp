// The probe's statistics and its choice of places, without a drive: write times made up the
// way a drive with a given physical sector would give them (plus noise and bursts of slow
// writes), and disk layouts made up by hand. No root needed.
#include "probe/probeanalysis.h"
#include "probe/probeplaces.h"
#include "report/probereport.h"

#include <QJsonArray>

#include <QRandomGenerator>
#include <QtTest>

using namespace partwise;

namespace {

struct Drive
{
    qint64 physical = 512; // 512: no penalty at all
    qint64 offset = 0;
    double wholeMicros = 100;
    double penaltyMicros = 2000;
    double noise = 0.1;        // ± this fraction on every write
    double burstChance = 0.02; // this share of writes is 20× slower (another process, a seek)
    QList<int> placesWithoutPenalty;
};

// A drive's answer to one write: a write that does not start and end on a physical boundary
// costs the penalty. Written out here on its own, not taken from the code under test.
double writeTime(const Drive &d, const ProbeCell &c, int place, QRandomGenerator &random)
{
    const auto onBoundary = [&d](qint64 byte) {
        return ((byte - d.offset) % d.physical + d.physical) % d.physical == 0;
    };
    double t = d.wholeMicros * (1 + c.unitBytes / 65536.0); // bigger writes take longer
    if ((!onBoundary(c.offsetBytes) || !onBoundary(c.offsetBytes + c.unitBytes)) &&
        !d.placesWithoutPenalty.contains(place))
        t += d.penaltyMicros;
    t *= 1 + d.noise * (2 * random.generateDouble() - 1);
    if (random.generateDouble() < d.burstChance)
        t *= 20;
    return t;
}

SectorProbeRun simulate(const Drive &d, int places = 8, int rounds = 5,
                        qint64 logicalSectorSize = 512)
{
    QRandomGenerator random(42);
    SectorProbeRun run;
    run.outcome = SectorProbeRun::Outcome::Measured;
    run.logicalSectorSize = logicalSectorSize;
    run.cells = probeCells(logicalSectorSize);
    for (int p = 0; p < places; ++p)
        run.places << ProbePlace{(p + 1) * 64 * 1024 * 1024LL, QStringLiteral("free space")};
    for (int r = 0; r < rounds; ++r)
        for (int p = 0; p < places; ++p)
            for (int c = 0; c < run.cells.size(); ++c)
                run.samples << ProbeSample{p, c, writeTime(d, run.cells[c], p, random)};
    run.roundsDone = rounds;
    return run;
}

DiskLayout layoutOf(qint64 sizeMiB, const QList<PartitionInfo> &regions, const QString &table)
{
    DiskLayout l;
    l.device.path = QStringLiteral("/dev/fake");
    l.device.sizeBytes = sizeMiB << 20;
    l.device.lengthSectors = l.device.sizeBytes / 512;
    l.tableType = table;
    l.regions = regions;
    return l;
}

PartitionInfo region(PartitionInfo::Kind kind, int number, qint64 startMiB, qint64 endMiB)
{
    PartitionInfo p;
    p.kind = kind;
    p.number = number;
    p.startSector = startMiB * 2048;
    p.endSector = endMiB * 2048 - 1;
    return p;
}

} // namespace

class TestProbeAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void cellsCoverEveryOffset();
    void findsSectors_data();
    void findsSectors();
    void noPenaltyOnAPlainDrive();
    void noPenaltyIsNotFooledByBursts();
    void penaltyAtFewPlacesIsUnclear();
    void fourKnDriveHasNoSubSectorOffsets();
    void timingTableIsOrdered();
    void placesSpreadOverFreeRoom();
    void placesAvoidBusyAndEdges();
    void placesOnWholeDriveWithoutTable();
    void reportReadBackFromJson();
    void reportFromJsonRefusesWrongFields();
};

void TestProbeAnalysis::cellsCoverEveryOffset()
{
    const QList<ProbeCell> cells = probeCells(512);
    QCOMPARE(cells.size(), 8 + 2 + 4 + 8);
    for (int k = 0; k < 8; ++k)
        QCOMPARE(cells[k].offsetBytes, qint64(512 * k));
    QCOMPARE(cells.last().unitBytes, qint64(32768));
    QCOMPARE(cells.last().offsetBytes, qint64(28672));
    // 4Kn: 512-byte offsets cannot be written.
    QCOMPARE(probeCells(4096).size(), 1 + 2 + 4 + 8);
}

void TestProbeAnalysis::findsSectors_data()
{
    QTest::addColumn<qint64>("physical");
    QTest::addColumn<qint64>("offset");
    QTest::addColumn<double>("penalty");
    QTest::newRow("4096/0") << qint64(4096) << qint64(0) << 2000.0;
    QTest::newRow("4096/3584 (XP jumper)") << qint64(4096) << qint64(3584) << 2000.0;
    QTest::newRow("4096/512") << qint64(4096) << qint64(512) << 2000.0;
    QTest::newRow("8192/0") << qint64(8192) << qint64(0) << 2000.0;
    QTest::newRow("8192/4096") << qint64(8192) << qint64(4096) << 2000.0;
    QTest::newRow("16384/0") << qint64(16384) << qint64(0) << 2000.0;
    QTest::newRow("32768/12288") << qint64(32768) << qint64(12288) << 2000.0;
    QTest::newRow("4096/0 small penalty") << qint64(4096) << qint64(0) << 80.0;
}

void TestProbeAnalysis::findsSectors()
{
    QFETCH(qint64, physical);
    QFETCH(qint64, offset);
    QFETCH(double, penalty);
    Drive d;
    d.physical = physical;
    d.offset = offset;
    d.penaltyMicros = penalty;
    const ProbeVerdict v = analyseProbe(simulate(d));
    QCOMPARE(v.kind, ProbeVerdict::Kind::Penalty);
    QCOMPARE(v.physicalSectorSize, physical);
    QCOMPARE(v.alignmentOffset, offset);
    QCOMPARE(v.placesAgreeing, 8);
    QVERIFY2(v.ratio > 1.5, qPrintable(QString::number(v.ratio)));
    QVERIFY(v.sentence.startsWith(
        QStringLiteral("Physical sector %1 bytes, offset %2: writes that straddle it took ")
            .arg(physical)
            .arg(offset)));
    QVERIFY(v.sentence.endsWith(QStringLiteral("× as long.")));
}

void TestProbeAnalysis::noPenaltyOnAPlainDrive()
{
    const ProbeVerdict v = analyseProbe(simulate(Drive{}));
    QCOMPARE(v.kind, ProbeVerdict::Kind::NoPenalty);
    QCOMPARE(v.sentence, QStringLiteral("No penalty measured: the drive behaves like 512-byte "
                                        "sectors here, or a cache hides it."));
    for (const ProbeTiming &t : v.timings)
        QVERIFY(!t.straddles);
}

void TestProbeAnalysis::noPenaltyIsNotFooledByBursts()
{
    Drive d;
    d.noise = 0.3;
    d.burstChance = 0.15; // medians shrug off one write in seven being 20× slower
    for (int rounds : {1, 3, 5}) {
        const ProbeVerdict v = analyseProbe(simulate(d, 8, rounds));
        QVERIFY2(v.kind == ProbeVerdict::Kind::NoPenalty, qPrintable(v.sentence));
    }
}

void TestProbeAnalysis::penaltyAtFewPlacesIsUnclear()
{
    Drive d;
    d.physical = 4096;
    d.placesWithoutPenalty = {0, 1, 2, 3, 4, 5}; // only 2 of 8 places pay
    d.noise = 0;
    d.burstChance = 0;
    d.penaltyMicros = 20000; // so much that the medians over all places still show it
    SectorProbeRun run = simulate(d, 8, 5);
    // Three rounds where only places 6 and 7 were written: their times dominate the medians.
    const QList<ProbeSample> samples = run.samples;
    for (int k = 0; k < 6; ++k)
        for (const ProbeSample &s : samples)
            if (s.place >= 6)
                run.samples << s;
    const ProbeVerdict v = analyseProbe(run);
    QCOMPARE(v.kind, ProbeVerdict::Kind::Unclear);
    QCOMPARE(v.placesAgreeing, 2);
    QCOMPARE(v.placesTotal, 8);
    QVERIFY(v.sentence.startsWith(QStringLiteral("Unclear:")));
}

void TestProbeAnalysis::fourKnDriveHasNoSubSectorOffsets()
{
    Drive d;
    d.physical = 4096;
    const ProbeVerdict plain = analyseProbe(simulate(d, 8, 5, 4096));
    QCOMPARE(plain.kind, ProbeVerdict::Kind::NoPenalty);
    QVERIFY(plain.sentence.contains(QStringLiteral("4096-byte sectors")));
    d.physical = 16384;
    const ProbeVerdict big = analyseProbe(simulate(d, 8, 5, 4096));
    QCOMPARE(big.kind, ProbeVerdict::Kind::Penalty);
    QCOMPARE(big.physicalSectorSize, qint64(16384));
}

void TestProbeAnalysis::timingTableIsOrdered()
{
    Drive d;
    d.physical = 4096;
    const ProbeVerdict v = analyseProbe(simulate(d));
    QCOMPARE(v.timings.size(), probeCells(512).size());
    QCOMPARE(v.timings.first().unitBytes, qint64(4096));
    QCOMPARE(v.timings.first().offsetBytes, qint64(0));
    QVERIFY(!v.timings.first().straddles);
    QVERIFY(v.timings[1].straddles);
    QCOMPARE(v.timings[1].samples, 40);
    QVERIFY(v.timings[1].medianMicros > 1000);
    QCOMPARE(v.decidingUnit, qint64(4096));
}

void TestProbeAnalysis::placesSpreadOverFreeRoom()
{
    using K = PartitionInfo::Kind;
    const DiskLayout l = layoutOf(
        1024,
        {region(K::Free, 0, 0, 1), region(K::Primary, 1, 1, 513), region(K::Free, 0, 513, 1024)},
        QStringLiteral("gpt"));
    QStringList notes;
    const QList<ProbeRange> ranges = probeRanges(l, {}, &notes);
    const QList<ProbePlace> places = chooseProbePlaces(ranges, 8, 65536);
    QCOMPARE(places.size(), 8);
    qint64 previous = -(100LL << 20);
    for (const ProbePlace &p : places) {
        QCOMPARE(p.offsetBytes % 65536, 0);
        QVERIFY(p.offsetBytes >= (1 << 20));
        QVERIFY(p.offsetBytes + 65536 <= (1023LL << 20));
        QVERIFY2(p.offsetBytes > previous + (100LL << 20),
                 qPrintable(QString::number(p.offsetBytes >> 20))); // spread
        previous = p.offsetBytes;
    }
    QCOMPARE(places.first().where, QStringLiteral("partition 1 (no filesystem, not in use)"));
    QCOMPARE(places.last().where, QStringLiteral("free space"));
}

void TestProbeAnalysis::placesAvoidBusyAndEdges()
{
    using K = PartitionInfo::Kind;
    // Partition 1 is mounted; the kernel also still knows a partition 5 the table lost, at
    // 600–700 MiB, and it is mounted too.
    const DiskLayout l =
        layoutOf(1024, {region(K::Primary, 1, 1, 513), region(K::Free, 0, 513, 1024)},
                 QStringLiteral("gpt"));
    const QList<KernelPartition> kernel{
        {1, 1LL << 20, 512LL << 20, {QStringLiteral("/dev/x1 is mounted on /mnt")}},
        {5, 600LL << 20, 100LL << 20, {QStringLiteral("/dev/x5 is mounted on /srv")}}};
    QStringList notes;
    const QList<ProbeRange> ranges = probeRanges(l, kernel, &notes);
    QVERIFY(notes.join(QLatin1Char(' ')).contains(QStringLiteral("partition 1")));
    for (const ProbePlace &p : chooseProbePlaces(ranges, 32, 65536)) {
        QVERIFY(p.offsetBytes >= (513LL << 20));
        QVERIFY(p.offsetBytes + 65536 <= (600LL << 20) || p.offsetBytes >= (700LL << 20));
        QVERIFY(p.offsetBytes + 65536 <= (1023LL << 20));
    }
    // Nothing but the first MiB and a busy partition: no place at all.
    const DiskLayout full = layoutOf(64, {region(K::Free, 0, 0, 1), region(K::Primary, 1, 1, 63)},
                                     QStringLiteral("msdos"));
    const QList<KernelPartition> busy{{1, 1LL << 20, 62LL << 20, {QStringLiteral("busy")}}};
    QVERIFY(chooseProbePlaces(probeRanges(full, busy, nullptr), 8, 65536).isEmpty());
}

void TestProbeAnalysis::placesOnWholeDriveWithoutTable()
{
    const DiskLayout l = layoutOf(64, {}, QString());
    const QList<ProbePlace> places = chooseProbePlaces(probeRanges(l, {}, nullptr), 8, 65536);
    QCOMPARE(places.size(), 8);
    QVERIFY(places.first().offsetBytes >= (1 << 20));
    QVERIFY(places.last().offsetBytes + 65536 <= (63 << 20));
    QVERIFY(places.first().where.startsWith(QStringLiteral("the whole drive")));
}

// What a helper sends (probe --json's object) is read back into what the dialog shows: the
// same verdict sentence, chart and counts as if the probe had run in the window.
void TestProbeAnalysis::reportReadBackFromJson()
{
    Drive xp;
    xp.physical = 4096;
    xp.offset = 3584;
    Drive unclear;
    unclear.physical = 8192;
    unclear.placesWithoutPenalty = {0, 1, 2, 3, 4, 5};
    unclear.noise = 0;
    unclear.burstChance = 0;
    unclear.penaltyMicros = 20000;
    QList<ProbeVerdict::Kind> kinds;
    for (const Drive &d : {xp, unclear, Drive()}) {
        SectorProbeRun run = simulate(d);
        run.path = QStringLiteral("/dev/sdq");
        run.elapsedMs = 4321;
        run.notes << QStringLiteral("partition 2 is mounted and was left out");
        if (d.physical == 8192) // the unclear drive, as penaltyAtFewPlacesIsUnclear makes it
            for (int k = 0; k < 6; ++k)
                for (const ProbeSample &s : QList<ProbeSample>(run.samples))
                    if (s.place >= 6)
                        run.samples << s;
        const ProbeVerdict v = analyseProbe(run);
        ProbeMemory memory;
        memory.key = QStringLiteral("serial:Q1");
        memory.saved = v.kind == ProbeVerdict::Kind::Penalty;
        memory.note = QStringLiteral("a note");
        ProbeReport read;
        QString error;
        QVERIFY2(probeReportFromJson(probeToJson(run, v, memory), &read, &error),
                 qPrintable(error));
        QCOMPARE(read.run.outcome, SectorProbeRun::Outcome::Measured);
        QCOMPARE(read.run.path, run.path);
        QCOMPARE(read.run.places.size(), run.places.size());
        QCOMPARE(read.run.roundsDone, run.roundsDone);
        QCOMPARE(read.run.elapsedMs, run.elapsedMs);
        QCOMPARE(read.run.notes, run.notes);
        QCOMPARE(read.writes, run.samples.size());
        QCOMPARE(read.verdict.kind, v.kind);
        QCOMPARE(probeVerdictSentence(read.verdict), v.sentence);
        QCOMPARE(read.verdict.timings.size(), v.timings.size());
        for (int i = 0; i < v.timings.size(); ++i) {
            QCOMPARE(read.verdict.timings[i].offsetBytes, v.timings[i].offsetBytes);
            QCOMPARE(read.verdict.timings[i].straddles, v.timings[i].straddles);
            QVERIFY(qAbs(read.verdict.timings[i].medianMicros - v.timings[i].medianMicros) <= 0.05);
        }
        QCOMPARE(read.memory.key, memory.key);
        QCOMPARE(read.memory.saved, memory.saved);
        QCOMPARE(read.memory.note, memory.note);
        kinds << read.verdict.kind;
    }
    QCOMPARE(kinds,
             (QList<ProbeVerdict::Kind>{ProbeVerdict::Kind::Penalty, ProbeVerdict::Kind::Unclear,
                                        ProbeVerdict::Kind::NoPenalty}));
}

void TestProbeAnalysis::reportFromJsonRefusesWrongFields()
{
    Drive xp;
    xp.physical = 4096;
    const SectorProbeRun run = simulate(xp);
    const QJsonObject good = probeToJson(run, analyseProbe(run), ProbeMemory());
    auto withProbe = [&good](const char *key, const QJsonValue &value) {
        QJsonObject device = good;
        QJsonObject probe = device.value(QStringLiteral("probe")).toObject();
        probe[QLatin1String(key)] = value;
        device[QStringLiteral("probe")] = probe;
        return device;
    };
    QJsonObject badTiming = good;
    {
        QJsonObject probe = badTiming.value(QStringLiteral("probe")).toObject();
        QJsonArray timings = probe.value(QStringLiteral("timings")).toArray();
        QJsonObject first = timings.first().toObject();
        first[QStringLiteral("median_us")] = QStringLiteral("fast");
        timings[0] = first;
        probe[QStringLiteral("timings")] = timings;
        badTiming[QStringLiteral("probe")] = probe;
    }
    const QList<std::pair<QJsonObject, QString>> cases{
        {withProbe("outcome", QStringLiteral("exploded")), QStringLiteral("\"outcome\"")},
        {withProbe("verdict", 3), QStringLiteral("\"verdict\"")},
        {withProbe("writes", -5), QStringLiteral("\"writes\"")},
        {withProbe("places", QJsonArray{QJsonObject{{QStringLiteral("offset_bytes"), 1.5}}}),
         QStringLiteral("place 0's \"offset_bytes\"")},
        {badTiming, QStringLiteral("timing 0's \"median_us\"")},
        {QJsonObject{{QStringLiteral("path"), QStringLiteral("/dev/sdq")}},
         QStringLiteral("\"model\"")},
    };
    for (const auto &[json, named] : cases) {
        ProbeReport read;
        QString error;
        QVERIFY(!probeReportFromJson(json, &read, &error));
        QVERIFY2(error.contains(named), qPrintable(error + QStringLiteral(" lacks ") + named));
    }
}

QTEST_GUILESS_MAIN(TestProbeAnalysis)
#include "tst_probeanalysis.moc"
