// The alignment rules of ARCHITECTURE.md, on simulated drives: each expectation is worked out by
// hand from the rule, not by calling the code under test.
#include "align/alignmentgeometry.h"
#include "align/alignmentverdict.h"
#include "align/misalignmentreport.h"

#include <QtTest>

using namespace partwise;

namespace {

SectorTopology drive(qint64 logical, qint64 physical, qint64 optimal = 0, qint64 offset = 0)
{
    SectorTopology t;
    t.logicalSectorSize = logical;
    t.physicalSectorSize = physical;
    t.minimumIoSize = physical;
    t.optimalIoSize = optimal;
    t.alignmentOffset = offset;
    t.source = QStringLiteral("simulated");
    return t;
}

AlignmentStatus statusOf(qint64 start, const SectorTopology &t, AlignmentPolicy policy = {})
{
    return judgeStart(start, resolveAlignmentGeometry(t, policy)).status;
}

} // namespace

class AlignmentTest : public QObject
{
    Q_OBJECT
private slots:
    void advancedFormatDriveThatSaysSo();
    void driveThatLiesIsNotBelieved();
    void trustingTheDrive();
    void fourKn();
    void grainOf4KiB();
    void customGrainForRaid();
    void alignmentOffsetOfXpJumperedDrive();
    void saneOptimalIoIsHonoured();
    void bogusOptimalIoIsIgnored();
    void extendedIsAContainer();
    void reportCounts();
    void parsesSizes();
};

void AlignmentTest::advancedFormatDriveThatSaysSo()
{
    const SectorTopology t = drive(512, 4096);
    QCOMPARE(statusOf(63, t), AlignmentStatus::Misaligned);
    QCOMPARE(judgeStart(63, resolveAlignmentGeometry(t, {})).misalignmentBytes,
             3584); // 32256 % 4096
    QCOMPARE(statusOf(34, t), AlignmentStatus::Misaligned);
    QCOMPARE(judgeStart(34, resolveAlignmentGeometry(t, {})).misalignmentBytes, 1024);
    QCOMPARE(statusOf(40, t), AlignmentStatus::SectorAligned);
    QCOMPARE(statusOf(2048, t), AlignmentStatus::Aligned);
}

void AlignmentTest::driveThatLiesIsNotBelieved()
{
    const SectorTopology t = drive(512, 512); // a 512e drive claiming 512-byte physical sectors
    const AlignmentGeometry g = resolveAlignmentGeometry(t, {});
    QCOMPARE(g.physicalReported, 512);
    QCOMPARE(g.physicalAssumed, 4096);
    QCOMPARE(statusOf(63, t), AlignmentStatus::Misaligned);
}

void AlignmentTest::trustingTheDrive()
{
    AlignmentPolicy trust;
    trust.trustDrive = true;
    QCOMPARE(statusOf(63, drive(512, 512), trust), AlignmentStatus::SectorAligned);
    QCOMPARE(statusOf(63, drive(512, 4096), trust), AlignmentStatus::Misaligned);
}

void AlignmentTest::fourKn()
{
    const SectorTopology t = drive(4096, 4096);
    QCOMPARE(resolveAlignmentGeometry(t, {}).grainSectors(), 256);
    QCOMPARE(statusOf(6, t), AlignmentStatus::SectorAligned);
    QCOMPARE(statusOf(256, t), AlignmentStatus::Aligned);
}

void AlignmentTest::grainOf4KiB()
{
    AlignmentPolicy p;
    p.grainBytes = 4096;
    QCOMPARE(statusOf(40, drive(512, 4096), p), AlignmentStatus::Aligned);
    QCOMPARE(statusOf(34, drive(512, 4096), p), AlignmentStatus::Misaligned);
}

void AlignmentTest::customGrainForRaid()
{
    AlignmentPolicy p;
    p.grainBytes = 3 * 64 * 1024; // 64 KiB chunks × 3 data disks
    QCOMPARE(statusOf(384, drive(512, 4096), p), AlignmentStatus::Aligned);
    QCOMPARE(statusOf(2048, drive(512, 4096), p), AlignmentStatus::SectorAligned);
}

void AlignmentTest::alignmentOffsetOfXpJumperedDrive()
{
    // The jumper shifts LBAs by one sector so that LBA 63 lands on a physical boundary:
    // the kernel reports alignment_offset 3584.
    const SectorTopology t = drive(512, 4096, 0, 3584);
    const AlignmentVerdict v = judgeStart(63, resolveAlignmentGeometry(t, {}));
    QCOMPARE(v.misalignmentBytes, 0);
    QCOMPARE(statusOf(2048, t), AlignmentStatus::Misaligned);
}

void AlignmentTest::saneOptimalIoIsHonoured()
{
    const AlignmentGeometry g = resolveAlignmentGeometry(drive(512, 4096, 4 << 20), {});
    QVERIFY(g.optimalIoHonoured);
    QCOMPARE(g.grainBytes, 4 << 20);
    QCOMPARE(statusOf(2048, drive(512, 4096, 4 << 20)), AlignmentStatus::SectorAligned);
}

void AlignmentTest::bogusOptimalIoIsIgnored()
{
    const AlignmentGeometry g = resolveAlignmentGeometry(drive(512, 4096, 33553920), {});
    QVERIFY(!g.optimalIoHonoured);
    QCOMPARE(g.grainBytes, 1 << 20);
}

void AlignmentTest::extendedIsAContainer()
{
    PartitionInfo ext;
    ext.kind = PartitionInfo::Kind::Extended;
    ext.startSector = 2047;
    ext.endSector = 100000;
    QCOMPARE(judgePartition(ext, resolveAlignmentGeometry(drive(512, 4096), {})).status,
             AlignmentStatus::Container);
}

void AlignmentTest::reportCounts()
{
    DiskLayout layout;
    layout.device.topology = drive(512, 4096);
    const qint64 starts[] = {63, 2048, 4136};
    for (qint64 s : starts) {
        PartitionInfo p;
        p.startSector = s;
        p.endSector = s + 100;
        layout.regions << p;
    }
    PartitionInfo free;
    free.kind = PartitionInfo::Kind::Free;
    free.startSector = 5000;
    free.endSector = 9000;
    layout.regions << free;
    const MisalignmentReport r = analyzeAlignment(layout, {});
    QCOMPARE(r.partitionCount(), 3);
    QCOMPARE(r.misalignedCount(), 1);
    QCOMPARE(r.sectorAlignedCount(), 1);
}

void AlignmentTest::parsesSizes()
{
    QCOMPARE(parseByteSize(QStringLiteral("4k")).value_or(0), 4096);
    QCOMPARE(parseByteSize(QStringLiteral("1m")).value_or(0), 1 << 20);
    QCOMPARE(parseByteSize(QStringLiteral("1MiB")).value_or(0), 1 << 20);
    QCOMPARE(parseByteSize(QStringLiteral("512K")).value_or(0), 512 * 1024);
    QCOMPARE(parseByteSize(QStringLiteral("65536")).value_or(0), 65536);
    QCOMPARE(parseByteSize(QStringLiteral("mib")).value_or(0), 1 << 20);
    QVERIFY(!parseByteSize(QStringLiteral("lots")));
    QVERIFY(!parseByteSize(QStringLiteral("b")));
    QVERIFY(!parseByteSize(QStringLiteral("0")));
    QVERIFY(!parseByteSize(QStringLiteral("-4k")));
}

QTEST_GUILESS_MAIN(AlignmentTest)
#include "tst_alignment.moc"
