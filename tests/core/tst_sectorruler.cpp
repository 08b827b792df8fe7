// The sector ruler's model: which filesystem blocks straddle which physical sectors, worked
// out by hand for the disks Partwise teaches with (512-byte logical sectors over 4 KiB physical
// ones, 4Kn, the Windows XP offset of 63 sectors, a 64 KiB RAID stripe as the grain, a drive
// whose physical sectors begin 3,584 bytes in).

#include "align/sectorruler.h"

#include <QtTest>

using namespace partwise;

namespace {

AlignmentGeometry geometry(qint64 logical, qint64 physical, qint64 grain = 1 << 20,
                           qint64 offset = 0)
{
    AlignmentGeometry g;
    g.logicalSectorSize = logical;
    g.physicalReported = physical;
    g.physicalAssumed = physical;
    g.grainBytes = grain;
    g.alignmentOffset = offset;
    return g;
}

RulerRequest request(RulerEdge edge, qint64 first, qint64 last, qint64 window = 16384,
                     qint64 block = 4096)
{
    RulerRequest r;
    r.edge = edge;
    r.regionFirstSector = first;
    r.regionLastSector = last;
    r.windowBytes = window;
    r.blockSize = block;
    return r;
}

QList<qint64> numbers(const std::vector<RulerSpan> &spans)
{
    QList<qint64> out;
    for (const RulerSpan &s : spans)
        out << s.number;
    return out;
}

} // namespace

class TestSectorRuler : public QObject
{
    Q_OBJECT

private slots:
    void windowsXpStartOn512e()
    {
        // Sector 63 is byte 32,256: 3,584 bytes into physical sector 7 (28,672..32,767).
        const SectorRuler r =
            buildSectorRuler(geometry(512, 4096), request(RulerEdge::Start, 63, 63 + 2047));
        QCOMPARE(r.focusByte, 32256);
        QCOMPARE(r.focusInPhysical, 3584);
        QCOMPARE(r.focusInGrain, 32256);
        QCOMPARE(r.windowBegin, 24064); // 16 KiB centred on the start, on a logical sector
        QCOMPARE(r.windowEnd, 40448);
        QCOMPARE(r.logical.size(), std::size_t(32));
        QCOMPARE(r.logical.front().number, 47);
        QCOMPARE(r.logical.back().number, 78);
        QCOMPARE(numbers(r.physical), (QList<qint64>{5, 6, 7, 8, 9}));
        QCOMPARE(r.physical.front().begin, 24064); // cut to the window
        QCOMPARE(r.physical.back().end, 40448);
        QVERIFY(r.grainLines.empty());

        QCOMPARE(r.blocks.size(), std::size_t(2));
        const RulerBlock &first = r.blocks[0];
        QCOMPARE(first.begin, 32256);
        QCOMPARE(first.end, 36352);
        QCOMPARE(first.firstPhysical, 7);
        QCOMPARE(first.lastPhysical, 8);
        QCOMPARE(first.partialSectors, 2); // read 2 sectors, change them, write 2
        QCOMPARE(r.blocks[1].firstPhysical, 8);
        QCOMPARE(r.blocks[1].lastPhysical, 9);
        QCOMPARE(r.straddlingBlocksShown(), 2);
        QVERIFY(r.blocksStraddle());
    }

    void mibAlignedStartOn512e()
    {
        const SectorRuler r =
            buildSectorRuler(geometry(512, 4096), request(RulerEdge::Start, 2048, 4095));
        QCOMPARE(r.focusByte, 1048576);
        QCOMPARE(r.focusInPhysical, 0);
        QCOMPARE(r.focusInGrain, 0);
        QCOMPARE(r.grainLines, (std::vector<qint64>{1048576}));
        QCOMPARE(r.blocks.size(), std::size_t(2));
        QCOMPARE(r.blocks[0].firstPhysical, 256);
        QCOMPARE(r.blocks[0].lastPhysical, 256);
        QVERIFY(!r.blocksStraddle());
    }

    void fourKn()
    {
        // 4Kn: LBA 6 is byte 24,576, on a physical sector, 24 KiB past the MiB grain.
        const SectorRuler r =
            buildSectorRuler(geometry(4096, 4096), request(RulerEdge::Start, 6, 261));
        QCOMPARE(r.focusByte, 24576);
        QCOMPARE(r.focusInPhysical, 0);
        QCOMPARE(r.focusInGrain, 24576);
        QCOMPARE(r.windowBegin, 16384);
        QCOMPARE(numbers(r.logical), (QList<qint64>{4, 5, 6, 7}));
        QCOMPARE(numbers(r.physical), (QList<qint64>{4, 5, 6, 7}));
        QCOMPARE(r.blocks.size(), std::size_t(2));
        QVERIFY(!r.blocksStraddle());
    }

    void raidStripeGrain()
    {
        // A 64 KiB stripe as the grain; the start 1 MiB + 32 KiB is half a stripe off.
        const SectorRuler r = buildSectorRuler(geometry(512, 4096, 65536),
                                               request(RulerEdge::Start, 2112, 8191, 131072));
        QCOMPARE(r.focusByte, 1081344);
        QCOMPARE(r.focusInGrain, 32768);
        QCOMPARE(r.focusInPhysical, 0);
        QCOMPARE(r.grainLines, (std::vector<qint64>{1048576, 1114112}));
        QVERIFY(!r.blocksStraddle());
        QCOMPARE(r.blocks.size(), std::size_t(16)); // 64 KiB of blocks right of the start
    }

    void driveWithAlignmentOffset()
    {
        // Physical sectors that begin at byte 3,584 (LBA 7 inside the first one), as on the
        // old "XP jumper" drives: there, sector 63 is where a 4 KiB sector begins.
        const SectorRuler r = buildSectorRuler(geometry(512, 4096, 1 << 20, 3584),
                                               request(RulerEdge::Start, 63, 2110));
        QCOMPARE(r.physicalOrigin, 3584);
        QCOMPARE(r.focusInPhysical, 0);
        QCOMPARE(r.blocks[0].firstPhysical, 7); // (32,256 - 3,584) / 4,096
        QVERIFY(!r.blocksStraddle());
        // The window's first byte, 24,064, is where physical sector 5 begins: 3,584 + 5 × 4,096.
        QCOMPARE(r.physical.front().number, 5);
        QCOMPARE(r.physical.front().begin, 24064);
    }

    void endOfPartitions()
    {
        // Ending on a MiB boundary: the last whole block ends exactly at the last byte.
        SectorRuler r = buildSectorRuler(geometry(512, 4096), request(RulerEdge::End, 2048, 4095));
        QCOMPARE(r.focusByte, 2097152);
        QCOMPARE(r.blocks.size(), std::size_t(2));
        QCOMPARE(r.blocks.back().number, 255);
        QCOMPARE(r.blocks.back().end, 2097152);
        QVERIFY(!r.blocksStraddle());

        // The XP partition's last blocks straddle as its first ones do.
        r = buildSectorRuler(geometry(512, 4096), request(RulerEdge::End, 63, 2110));
        QCOMPARE(r.blocks.back().number, 255);
        QCOMPARE(r.blocks.back().begin, 1076736);
        QCOMPARE(r.blocks.back().firstPhysical, 262);
        QCOMPARE(r.blocks.back().partialSectors, 2);
    }

    void freeSpaceShowsWhereANewPartitionStarts()
    {
        // Free space from GPT sector 34: a new partition would start on the next MiB.
        const SectorRuler r =
            buildSectorRuler(geometry(512, 4096), request(RulerEdge::Free, 34, 1000000));
        QCOMPARE(r.regionBegin, 17408);
        QCOMPARE(r.focusByte, 1048576);
        QCOMPARE(r.focusInGrain, 0);
        QVERIFY(!r.blocks.empty());
        QCOMPARE(r.blocks.front().begin, 1048576);
        QVERIFY(!r.blocksStraddle());
    }

    void blocksSmallerThanASector()
    {
        // 1 KiB blocks (a small ext4) cover a quarter of a 4 KiB sector: every write of one
        // is a read-modify-write, aligned or not.
        const SectorRuler r = buildSectorRuler(geometry(512, 4096),
                                               request(RulerEdge::Start, 2048, 4095, 16384, 1024));
        QCOMPARE(r.blocks.front().firstPhysical, 256);
        QCOMPARE(r.blocks.front().lastPhysical, 256);
        QCOMPARE(r.blocks.front().partialSectors, 1);
    }

    void zoomIsBounded()
    {
        RulerRequest huge = request(RulerEdge::Start, 2048, 1 << 30, qint64(1) << 40);
        SectorRuler r = buildSectorRuler(geometry(512, 4096), huge);
        QCOMPARE(r.windowEnd - r.windowBegin, kRulerMaxWindow);
        huge.windowBytes = 1;
        r = buildSectorRuler(geometry(512, 4096), huge);
        QCOMPARE(r.windowEnd - r.windowBegin, kRulerMinWindow);
        QCOMPARE(r.windowBegin, 1048576 - 2048);
    }
};

QTEST_GUILESS_MAIN(TestSectorRuler)
#include "tst_sectorruler.moc"
