// The room a resize or move may use and where it lands, on hand-made tables: every expected
// sector is worked out by hand from ARCHITECTURE.md's grain rule (2048 sectors of 512 bytes, 256 of
// 4096), not by calling the code under test.
#include "align/alignmentgeometry.h"
#include "align/resizeplacement.h"

#include <QtTest>

using namespace partwise;

namespace {

PartitionInfo region(PartitionInfo::Kind kind, int number, qint64 start, qint64 end,
                     bool insideExtended = false)
{
    PartitionInfo p;
    p.kind = kind;
    p.number = number;
    p.startSector = start;
    p.endSector = end;
    p.insideExtended = insideExtended;
    return p;
}

PartitionInfo freeSpace(qint64 start, qint64 end, bool insideExtended = false)
{
    return region(PartitionInfo::Kind::Free, 0, start, end, insideExtended);
}

PartitionInfo primary(int number, qint64 start, qint64 end)
{
    return region(PartitionInfo::Kind::Primary, number, start, end);
}

// A 512-byte GPT disk of 262144 sectors (128 MiB): usable 34 – 262110.
DiskLayout gpt(const QList<PartitionInfo> &regions)
{
    DiskLayout d;
    d.tableType = QStringLiteral("gpt");
    d.device.topology.logicalSectorSize = 512;
    d.device.topology.physicalSectorSize = 512;
    d.firstUsableSector = 34;
    d.lastUsableSector = 262110;
    d.regions = regions;
    return d;
}

AlignmentGeometry geometry(qint64 sectorSize = 512)
{
    SectorTopology t;
    t.logicalSectorSize = sectorSize;
    t.physicalSectorSize = sectorSize;
    return resolveAlignmentGeometry(t, AlignmentPolicy());
}

} // namespace

class ResizePlacementTest : public QObject
{
    Q_OBJECT
private slots:
    void rangeTakesBothFreeNeighbours();
    void rangeStopsAtNeighbouringPartitions();
    void logicalStaysInsideExtended();
    void unknownPartition();
    void growKeepsStartAndEndsBeforeBoundary();
    void keptStartStaysEvenOffTheGrain();
    void tooLargeIsRefused();
    void neverFewerSectorsThanAsked();
    void endFollowsTheDrivesAlignmentOffset();
    void moveSnapsStartUpToTheGrain();
    void moveWithFourKiBAndNone();
    void restTakesEverythingAfter();
    void fourKnGrainIs256();
};

void ResizePlacementTest::rangeTakesBothFreeNeighbours()
{
    // 34 – 2047 free, p1 2048 – 206847 (100 MiB), free to the end.
    const DiskLayout d =
        gpt({freeSpace(34, 2047), primary(1, 2048, 206847), freeSpace(206848, 262143)});
    const ResizeRange r = resizeRange(d, 1);
    QVERIFY(r.ok);
    QCOMPARE(r.lowestStart, 34);
    QCOMPARE(r.highestEnd, 262110); // not into the backup GPT
    QCOMPARE(r.freeBeforeSectors(), 2014);
    QCOMPARE(r.freeAfterSectors(), 262110 - 206847);
    QCOMPARE(r.lengthSectors(), 262110 - 34 + 1);
    QVERIFY(!r.logical);
}

void ResizePlacementTest::rangeStopsAtNeighbouringPartitions()
{
    const DiskLayout d = gpt({freeSpace(34, 2047), primary(1, 2048, 4095), primary(2, 4096, 8191),
                              freeSpace(8192, 262143)});
    ResizeRange r = resizeRange(d, 1);
    QCOMPARE(r.lowestStart, 34);
    QCOMPARE(r.highestEnd, 4095);
    r = resizeRange(d, 2);
    QCOMPARE(r.lowestStart, 4096);
    QCOMPARE(r.highestEnd, 262110);
}

void ResizePlacementTest::logicalStaysInsideExtended()
{
    DiskLayout d = gpt({});
    d.tableType = QStringLiteral("msdos");
    d.firstUsableSector = 1;
    d.lastUsableSector = 262143;
    d.regions = {freeSpace(1, 2047),
                 region(PartitionInfo::Kind::Extended, 2, 2048, 200000),
                 freeSpace(2048, 4095, true),
                 region(PartitionInfo::Kind::Logical, 5, 4096, 8191),
                 freeSpace(8192, 200000, true),
                 freeSpace(200001, 262143)};
    const ResizeRange r = resizeRange(d, 5);
    QVERIFY(r.logical);
    QCOMPARE(r.lowestStart, 2048);
    QCOMPARE(r.highestEnd, 200000);
    // Moved down to the start of the free space, its EBR needs a sector: the next grain.
    ResizeRequest req;
    req.range = r;
    req.newStart = 2048;
    req.sizeSectors = 4096;
    const Placement p = placeResize(req, geometry());
    QVERIFY2(p.ok, qPrintable(p.error));
    QCOMPARE(p.startSector, 4096);
    QCOMPARE(p.endSector, 8191);
}

void ResizePlacementTest::unknownPartition()
{
    QVERIFY(!resizeRange(gpt({freeSpace(34, 262110)}), 1).ok);
}

void ResizePlacementTest::growKeepsStartAndEndsBeforeBoundary()
{
    const DiskLayout d = gpt({primary(1, 2048, 206847), freeSpace(206848, 262143)});
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    req.sizeSectors = 120 * 2048 + 100; // never fewer sectors: up to 121 MiB
    const Placement p = placeResize(req, geometry());
    QVERIFY(p.ok);
    QCOMPARE(p.startSector, 2048);
    QCOMPARE(p.endSector, 2048 + 121 * 2048 - 1);
}

void ResizePlacementTest::keptStartStaysEvenOffTheGrain()
{
    // The classic misaligned GPT start: a resize alone does not move data.
    const DiskLayout d = gpt({primary(1, 34, 16417), freeSpace(16418, 262143)});
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    req.sizeSectors = 20000;
    const Placement p = placeResize(req, geometry());
    QVERIFY(p.ok);
    QCOMPARE(p.startSector, 34);
    QCOMPARE(p.endSector, 20479); // 34 + 20000 − 1 = 20033, up to just before 10 × 2048
}

void ResizePlacementTest::tooLargeIsRefused()
{
    const DiskLayout d = gpt({primary(1, 2048, 206847), primary(2, 206848, 262110)});
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    req.sizeSectors = 100 * 2048 + 1;
    const Placement p = placeResize(req, geometry());
    QVERIFY(!p.ok);
    QVERIFY(!p.error.isEmpty());
}

void ResizePlacementTest::neverFewerSectorsThanAsked()
{
    // A partition of 100 MiB + 7 sectors at 4096, moved down to 1 MiB with its size kept: its
    // data may fill every sector, so the end goes up to the next MiB, not down.
    const qint64 length = 100 * 2048 + 7;
    const DiskLayout d = gpt({freeSpace(34, 4095), primary(1, 4096, 4096 + length - 1),
                              freeSpace(4096 + length, 262110)});
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    req.newStart = 2048;
    req.sizeSectors = length;
    const Placement moved = placeResize(req, geometry());
    QVERIFY2(moved.ok, qPrintable(moved.error));
    QCOMPARE(moved.startSector, 2048);
    QCOMPARE(moved.endSector, 102 * 2048 - 1); // 2048 + length − 1 = 206854, up to before 102 MiB

    // No room to round up (a neighbour right behind it): exactly as asked.
    const DiskLayout tight =
        gpt({primary(1, 34, 34 + length - 1), primary(2, 34 + length, 262110)});
    ResizeRequest keep;
    keep.range = resizeRange(tight, 1);
    keep.sizeSectors = length;
    const Placement same = placeResize(keep, geometry());
    QVERIFY(same.ok);
    QCOMPARE(same.startSector, 34);
    QCOMPARE(same.endSector, 34 + length - 1);

    // "All the room" behind a partition that already reaches past the last MiB boundary keeps
    // every sector it has.
    ResizeRequest rest;
    rest.range = resizeRange(gpt({primary(1, 2048, 262105), freeSpace(262106, 262110)}), 1);
    const Placement all = placeResize(rest, geometry());
    QVERIFY(all.ok);
    QCOMPARE(all.endSector, 262110);
}

void ResizePlacementTest::endFollowsTheDrivesAlignmentOffset()
{
    // An XP-jumper drive: physical sectors begin 3584 bytes (7 sectors) into the disk, so its
    // MiB boundaries are 2048k + 7. A kept start of 34 with 20000 sectors ends before 20487.
    SectorTopology t;
    t.logicalSectorSize = 512;
    t.physicalSectorSize = 4096;
    t.alignmentOffset = 3584;
    const AlignmentGeometry g = resolveAlignmentGeometry(t, AlignmentPolicy());
    const DiskLayout d = gpt({primary(1, 34, 16417), freeSpace(16418, 262110)});
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    req.sizeSectors = 20000;
    const Placement p = placeResize(req, g);
    QVERIFY(p.ok);
    QCOMPARE(p.endSector, 10 * 2048 + 7 - 1);
}

void ResizePlacementTest::moveSnapsStartUpToTheGrain()
{
    // Asked to start at 5 MiB + 3 sectors: the next MiB is 6 MiB.
    const DiskLayout d = gpt({freeSpace(34, 2047), primary(1, 2048, 206847)});
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    req.newStart = 5 * 2048 + 3;
    req.sizeSectors = 90 * 2048;
    const Placement p = placeResize(req, geometry());
    QVERIFY2(p.ok, qPrintable(p.error));
    QCOMPARE(p.startSector, 6 * 2048);
    QCOMPARE(p.endSector, 96 * 2048 - 1);
    // Moved down as far as it goes: the first MiB, not sector 34.
    req.newStart = 34;
    req.sizeSectors = 100 * 2048;
    const Placement low = placeResize(req, geometry());
    QVERIFY(low.ok);
    QCOMPARE(low.startSector, 2048);
}

void ResizePlacementTest::moveWithFourKiBAndNone()
{
    const DiskLayout d = gpt({freeSpace(34, 2047), primary(1, 2048, 206847)});
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    req.newStart = 35;
    req.sizeSectors = 2048;
    req.alignTo = AlignTo::FourKiB;
    QCOMPARE(placeResize(req, geometry()).startSector, 40);
    req.alignTo = AlignTo::None;
    const Placement none = placeResize(req, geometry());
    QCOMPARE(none.startSector, 35);
    QCOMPARE(none.endSector, 35 + 2048 - 1);
}

void ResizePlacementTest::restTakesEverythingAfter()
{
    const DiskLayout d = gpt({primary(1, 2048, 206847), freeSpace(206848, 262143)});
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    const Placement p = placeResize(req, geometry());
    QVERIFY(p.ok);
    QCOMPARE(p.startSector, 2048);
    // 262110 + 1 is not on a MiB, so the end comes down to 127 MiB − 1.
    QCOMPARE(p.endSector, 127 * 2048 - 1);
}

void ResizePlacementTest::fourKnGrainIs256()
{
    DiskLayout d;
    d.tableType = QStringLiteral("gpt");
    d.device.topology.logicalSectorSize = 4096;
    d.firstUsableSector = 6;
    d.lastUsableSector = 32762;
    d.regions = {freeSpace(6, 255), region(PartitionInfo::Kind::Primary, 1, 256, 25855),
                 freeSpace(25856, 32767)};
    ResizeRequest req;
    req.range = resizeRange(d, 1);
    QCOMPARE(req.range.lowestStart, 6);
    req.newStart = 300;
    req.sizeSectors = 256 * 50;
    const Placement p = placeResize(req, geometry(4096));
    QVERIFY(p.ok);
    QCOMPARE(p.startSector, 512);
    QCOMPARE(p.endSector, 512 + 256 * 50 - 1);
}

QTEST_GUILESS_MAIN(ResizePlacementTest)
#include "tst_resizeplacement.moc"
