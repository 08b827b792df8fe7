// Realignment planning on hand-made layouts: each expected sector is worked out from the rule
// (nearest 1 MiB boundary = next multiple of 2048 sectors of 512 bytes), not by the planner.
#include "align/realignplan.h"

#include <QtTest>

using namespace partwise;

namespace {

using Kind = PartitionInfo::Kind;

PartitionInfo part(int number, qint64 start, qint64 end, Kind kind = Kind::Primary,
                   const QString &fs = QStringLiteral("ext4"))
{
    PartitionInfo p;
    p.number = number;
    p.startSector = start;
    p.endSector = end;
    p.kind = kind;
    p.filesystem = kind == Kind::Extended ? QString() : fs;
    return p;
}

DiskLayout disk(const QString &table, QList<PartitionInfo> parts, qint64 sectors = 1 << 21)
{
    DiskLayout d;
    d.tableType = table;
    d.device.lengthSectors = sectors;
    d.device.topology.logicalSectorSize = 512;
    d.device.topology.physicalSectorSize = 512;
    d.firstUsableSector = table == QLatin1String("gpt") ? 34 : 1;
    d.lastUsableSector = table == QLatin1String("gpt") ? sectors - 34 : sectors - 1;
    d.regions = parts;
    return d;
}

// What the filesystems' tools can shrink is core/fs's business; the planner only asks.
bool shrinkable(const PartitionInfo &p, qint64)
{
    return p.filesystem == QLatin1String("ext4") || p.filesystem == QLatin1String("vfat");
}

RealignRequest ask(QList<int> partitions = {}, bool all = false,
                   RealignPreference prefer = RealignPreference::Cheapest)
{
    RealignRequest r;
    r.partitions = partitions;
    r.includeSectorAligned = all;
    r.prefer = prefer;
    r.canShrink = shrinkable;
    return r;
}

RealignPlan plan(const DiskLayout &d, RealignRequest request = ask())
{
    return planRealignment(d, resolveAlignmentGeometry(d.device.topology, {}), request);
}

const PartitionMove *moveOf(const RealignPlan &p, int number)
{
    for (const PartitionMove &m : p.moves)
        if (m.number == number)
            return &m;
    return nullptr;
}

// No move's destination (with the EBR sector before a logical partition) covers the place of a
// partition that has not moved yet.
bool runsInSafeOrder(const RealignPlan &p)
{
    for (int a = 0; a < p.moves.size(); ++a)
        for (int b = a + 1; b < p.moves.size(); ++b) {
            const PartitionMove &m = p.moves[a], &w = p.moves[b];
            if (m.tableOnly() || w.tableOnly() ||
                (m.kind == Kind::Logical) != (w.kind == Kind::Logical))
                continue;
            const qint64 ebr = m.kind == Kind::Logical ? 1 : 0;
            if (m.newStart - ebr <= w.oldEnd && w.oldStart - ebr <= m.newEnd)
                return false;
        }
    return true;
}

} // namespace

class RealignPlanTest : public QObject
{
    Q_OBJECT
private slots:
    void xpPartitionMovesUpIntoFreeSpace();
    void chainMovesLastFirst();
    void noRoomMovesDown();
    void xfsShiftsItsNeighbourIntoFreeSpaceBeyond();
    void noRoomAnywhereAndXfsIsExplained();
    void fullDiskShrinksTheLastNeighbour();
    void refusedShrinkNamesTheNextWay();
    void cheapestWayIsTakenUnlessPreferred();
    void usedBytesPriceTheWays();
    void extendedShiftsWithItsLogicals();
    void precedingPartitionsShiftDown();
    void fatWithNoFreeSpaceShrinks();
    void fewSectorsShortShrinksExt4();
    void logicalKeepsItsEbrAndStaysInside();
    void gptBackupAreaIsRespected();
    void swapIsRecreatedNotCopied();
    void sectorAlignedOnlyOnRequest();
};

void RealignPlanTest::xpPartitionMovesUpIntoFreeSpace()
{
    const RealignPlan p = plan(disk(QStringLiteral("msdos"), {part(1, 63, 1000062)}));
    QCOMPARE(p.moves.size(), 1);
    QCOMPARE(p.moves[0].newStart, 2048);
    QCOMPARE(p.moves[0].newEnd, 2048 + 1000000 - 1); // same size
    QCOMPARE(p.totalBytes(), qint64(1000000) * 512);
}

void RealignPlanTest::chainMovesLastFirst()
{
    // GPT at 34 with two adjacent partitions and room after the second.
    const RealignPlan p =
        plan(disk(QStringLiteral("gpt"), {part(1, 34, 100033), part(2, 100034, 300033)}));
    QCOMPARE(p.moves.size(), 2);
    QCOMPARE(p.moves[0].number, 2);        // the last one moves first, out of the first one's way
    QCOMPARE(p.moves[0].newStart, 100352); // next multiple of 2048 after 100034
    QCOMPARE(p.moves[1].newStart, 2048);
    QVERIFY(p.moves[1].newEnd < p.moves[0].newStart);
    QVERIFY(runsInSafeOrder(p));
}

void RealignPlanTest::noRoomMovesDown()
{
    // Partition 2 is followed directly by partition 3, but has room before it.
    const RealignPlan p = plan(disk(QStringLiteral("msdos"),
                                    {part(1, 2048, 4095), part(2, 8001, 20000),
                                     part(3, 20001, 40000, Kind::Primary, QStringLiteral("xfs"))},
                                    60000),
                               ask({2}));
    const PartitionMove *m = moveOf(p, 2);
    QVERIFY(m);
    QCOMPARE(m->newStart, 6144); // the boundary below 8001
}

void RealignPlanTest::xfsShiftsItsNeighbourIntoFreeSpaceBeyond()
{
    // XFS cannot shrink; the ext4 partition right behind it has free space after it.
    const RealignPlan p = plan(
        disk(QStringLiteral("msdos"),
             {part(1, 63, 200000, Kind::Primary, QStringLiteral("xfs")), part(2, 200001, 400000)}),
        ask({1}));
    QCOMPARE(p.moves.size(), 2);
    QCOMPARE(p.moves[0].number, 2);        // out of the way first
    QCOMPARE(p.moves[0].newStart, 202752); // 99 × 2048: the first boundary after 2048 + 199938
    QCOMPARE(p.moves[0].newLength(), 200000);
    QCOMPARE(p.moves[1].number, 1);
    QCOMPARE(p.moves[1].newStart, 2048);
    QCOMPARE(p.moves[1].newLength(), 199938);
    QCOMPARE(p.choices.size(), 1);
    QCOMPARE(p.choices[0].taken().way, RealignWay::ShiftFollowing);
}

void RealignPlanTest::noRoomAnywhereAndXfsIsExplained()
{
    // No free space on the disk at all, and no neighbour that could give some: the partition
    // and the MiB to free are named.
    const RealignPlan p = plan(disk(QStringLiteral("msdos"),
                                    {part(1, 63, 200000, Kind::Primary, QStringLiteral("xfs")),
                                     part(2, 200001, 400000, Kind::Primary, QStringLiteral("xfs"))},
                                    400001),
                               ask({1}));
    QVERIFY(p.moves.isEmpty());
    QCOMPARE(p.skipped.size(), 1);
    const QString why = p.skipped[0].reason;
    QVERIFY2(why.contains(QLatin1String("partition 1 (xfs)")), qPrintable(why));
    QVERIFY2(why.contains(QLatin1String("XFS filesystems cannot be shrunk")), qPrintable(why));
    // Shifting partition 2 to 202752 would end it at 402751: 2751 sectors (1.3 MiB) too far.
    QVERIFY2(why.contains(QLatin1String("at least 2 MiB")), qPrintable(why));
}

void RealignPlanTest::fullDiskShrinksTheLastNeighbour()
{
    // XFS cannot shrink and the disk is full, but the ext4 partition at its end can give up the
    // 2751 sectors it would stick out by: it shrinks, shifts to 202752 and ends at the disk's end.
    const RealignPlan p = plan(
        disk(QStringLiteral("msdos"),
             {part(1, 63, 200000, Kind::Primary, QStringLiteral("xfs")), part(2, 200001, 400000)},
             400001),
        ask({1}));
    QCOMPARE(p.skipped.size(), 0);
    QCOMPARE(p.choices.size(), 1);
    QCOMPARE(p.choices[0].taken().way, RealignWay::ShiftFollowing);
    const PartitionMove *two = moveOf(p, 2);
    QVERIFY(two);
    QCOMPARE(two->newStart, 202752);
    QCOMPARE(two->newEnd, 400000);
    QCOMPARE(two->shrinkSectors, 2751);
    QVERIFY2(p.choices[0].taken().describe().contains(QLatin1String("partition 2's filesystem "
                                                                    "shrunk by 1.3 MiB")),
             qPrintable(p.choices[0].taken().describe()));
    const PartitionMove *one = moveOf(p, 1);
    QVERIFY(one);
    QCOMPARE(one->newStart, 2048);
    QCOMPARE(one->newLength(), 199938);
    // The shrink runs before any data moves; a filesystem that cannot shrink has no such way.
    QCOMPARE(p.moves.first().number, 2);
    RealignRequest noShrink = ask({1});
    noShrink.canShrink = [](const PartitionInfo &, qint64) { return false; };
    QVERIFY(plan(disk(QStringLiteral("msdos"),
                      {part(1, 63, 200000, Kind::Primary, QStringLiteral("xfs")),
                       part(2, 200001, 400000)},
                      400001),
                 noShrink)
                .moves.isEmpty());
}

void RealignPlanTest::refusedShrinkNamesTheNextWay()
{
    // Partition 1 shrinks cheapest; if its tool refuses, the next way shrinks nothing.
    const DiskLayout d = disk(QStringLiteral("msdos"),
                              {part(1, 63, 200000), part(2, 200001, 400000),
                               part(3, 600000, 700000, Kind::Primary, QStringLiteral("xfs"))},
                              800001);
    const RealignPlan p = plan(d, ask({1}));
    QCOMPARE(p.choices.size(), 1);
    QCOMPARE(p.choices[0].taken().way, RealignWay::Shrink);
    const std::optional<NextWay> next = nextWayWithoutShrink(p, 1);
    QVERIFY(next);
    QCOMPARE(next->number, 1);
    QCOMPARE(next->way, RealignWay::ShiftFollowing);
    QVERIFY(!nextWayWithoutShrink(p, 2)); // partition 2 shrinks in no way taken
    // --prefer move takes that same way.
    const RealignPlan moved = plan(d, ask({1}, false, RealignPreference::Move));
    QCOMPARE(moved.choices[0].taken().way, next->way);
}

void RealignPlanTest::fewSectorsShortShrinksExt4()
{
    const RealignPlan p = plan(
        disk(QStringLiteral("msdos"),
             {part(1, 63, 200000), part(2, 200001, 400000, Kind::Primary, QStringLiteral("xfs"))}),
        ask({1}));
    QCOMPARE(p.moves.size(), 1);
    QCOMPARE(p.moves[0].newStart, 2048);
    QCOMPARE(p.moves[0].newEnd, 200000);
    QCOMPARE(p.moves[0].shrinkSectors, 2048 - 63);
}

void RealignPlanTest::logicalKeepsItsEbrAndStaysInside()
{
    // Old fdisk: extended at a cylinder, logicals 63 sectors after each EBR.
    const RealignPlan p =
        plan(disk(QStringLiteral("msdos"),
                  {part(1, 63, 16064), part(2, 16065, 1000000, Kind::Extended),
                   part(5, 16128, 400000, Kind::Logical), part(6, 401625, 800000, Kind::Logical)}),
             ask({5, 6}));
    const PartitionMove *five = moveOf(p, 5);
    const PartitionMove *six = moveOf(p, 6);
    QVERIFY(five && six);
    QCOMPARE(six->newStart, 403456); // next multiple of 2048 after 401625
    QCOMPARE(five->newStart, 16384);
    QVERIFY(five->newEnd <= six->newStart - 2); // one sector stays free for partition 6's EBR
    QVERIFY(six->newEnd <= 1000000);            // inside the extended partition
    QVERIFY(runsInSafeOrder(p));
}

void RealignPlanTest::gptBackupAreaIsRespected()
{
    const qint64 sectors = 1 << 20;
    const RealignPlan p = plan(disk(QStringLiteral("gpt"), {part(1, 34, sectors - 100)}, sectors));
    // Moving up would run into the backup GPT; moving down is impossible: it must shrink.
    QCOMPARE(p.moves.size(), 1);
    QVERIFY(p.moves[0].newEnd <= sectors - 34);
    QCOMPARE(p.moves[0].newStart, 2048);
    QVERIFY(p.moves[0].shrinkSectors > 0);
}

void RealignPlanTest::swapIsRecreatedNotCopied()
{
    const RealignPlan p = plan(disk(QStringLiteral("msdos"),
                                    {part(1, 63, 100000, Kind::Primary, QStringLiteral("swap"))}));
    QCOMPARE(p.moves.size(), 1);
    QVERIFY(p.moves[0].recreateSwap);
    QCOMPARE(p.moves[0].bytesToMove(512), 0);
}

void RealignPlanTest::sectorAlignedOnlyOnRequest()
{
    const DiskLayout d = disk(QStringLiteral("gpt"), {part(1, 40, 100039)});
    QVERIFY(plan(d).moves.isEmpty());
    const RealignPlan all = plan(d, ask({}, true));
    QCOMPARE(all.moves.size(), 1);
    QCOMPARE(all.moves[0].newStart, 2048);
}

void RealignPlanTest::cheapestWayIsTakenUnlessPreferred()
{
    // ext4 at 63 followed by xfs, free space after: shrinking copies only partition 1, shifting
    // copies both.
    const DiskLayout d =
        disk(QStringLiteral("msdos"),
             {part(1, 63, 200000), part(2, 200001, 400000, Kind::Primary, QStringLiteral("xfs"))});
    const RealignPlan cheapest = plan(d, ask({1}));
    QCOMPARE(cheapest.choices.size(), 1);
    const RealignChoice &c = cheapest.choices[0];
    QCOMPARE(c.options.size(), 2);
    QCOMPARE(c.options[0].way, RealignWay::Shrink);
    QCOMPARE(c.options[0].bytesToMove, qint64(199938) * 512); // its data, priced whole
    QCOMPARE(c.options[0].shrinkBytes, qint64(2048 - 63) * 512);
    QCOMPARE(c.options[1].way, RealignWay::ShiftFollowing);
    QCOMPARE(c.options[1].bytesToMove, qint64(199938 + 200000) * 512);
    QCOMPARE(c.chosen, 0);

    const RealignPlan moved = plan(d, ask({1}, false, RealignPreference::Move));
    QCOMPARE(moved.moves.size(), 2);
    QCOMPARE(moveOf(moved, 1)->shrinkSectors, 0);
    QCOMPARE(moveOf(moved, 2)->newStart, 202752);

    RealignRequest picked = ask({1});
    picked.ways[1] = RealignWay::ShiftFollowing;
    QCOMPARE(plan(d, picked).moves.size(), 2);
}

void RealignPlanTest::usedBytesPriceTheWays()
{
    // A nearly empty partition 2 makes shifting it cheaper than moving down a full partition 1.
    const DiskLayout d = disk(QStringLiteral("gpt"),
                              {part(1, 4096, 10246), part(2, 10247, 200000),
                               part(3, 200001, 600000, Kind::Primary, QStringLiteral("xfs"))});
    RealignRequest r = ask({2});
    r.bytesInUse = [](const PartitionInfo &p) { return p.number == 2 ? qint64(1) << 20 : -1; };
    const RealignPlan p = plan(d, r);
    QCOMPARE(p.choices.size(), 1);
    for (const RealignOption &o : p.choices[0].options)
        QVERIFY(o.bytesToMove >= qint64(1) << 20);
    // Partition 2's move is priced at what it holds, not its 95 MiB.
    const RealignOption &taken = p.choices[0].taken();
    QCOMPARE(taken.way, RealignWay::Shrink);
    QCOMPARE(taken.bytesToMove, qint64(1) << 20);
    QCOMPARE(p.totalBytes(), qint64(1) << 20);
}

void RealignPlanTest::extendedShiftsWithItsLogicals()
{
    // FAT32 at 63 (kept from shrinking by --prefer move), an extended partition right behind it
    // with two aligned logical partitions, free space after it.
    const DiskLayout d =
        disk(QStringLiteral("msdos"),
             {part(1, 63, 204862, Kind::Primary, QStringLiteral("vfat")),
              part(2, 204863, 1228799, Kind::Extended), part(5, 206848, 411647, Kind::Logical),
              part(6, 413696, 1228799, Kind::Logical)});
    const RealignPlan p = plan(d, ask({1}, false, RealignPreference::Move));
    QCOMPARE(p.skipped.size(), 0);
    // p1 ends at 2048 + 204800 - 1 = 206847; the container must start after it, so everything in
    // it shifts by one grain (2048 sectors: it starts 1985 sectors too early).
    QStringList order;
    for (const PartitionMove &m : p.moves)
        order << QStringLiteral("%1:%2-%3").arg(m.number).arg(m.newStart).arg(m.newEnd);
    QCOMPARE(order, QStringList({QStringLiteral("2:204863-1230847"), // widened over both places
                                 QStringLiteral("6:415744-1230847"), // last first
                                 QStringLiteral("5:208896-413695"),
                                 QStringLiteral("2:206911-1230847"), // narrowed to its new place
                                 QStringLiteral("1:2048-206847")}));
    QVERIFY(p.moves[0].tableOnly());
    QVERIFY(p.moves[3].tableOnly());
    QVERIFY(runsInSafeOrder(p));
    QCOMPARE(p.totalBytes(), qint64(204800 + 204800 + 815104) * 512);
}

void RealignPlanTest::precedingPartitionsShiftDown()
{
    // Free space only before partition 1, which ends right before the misaligned partition 2;
    // partition 2 runs to the end of the usable space.
    const qint64 sectors = 1 << 20;
    const DiskLayout d = disk(
        QStringLiteral("gpt"),
        {part(1, 4096, 10246), part(2, 10247, sectors - 34, Kind::Primary, QStringLiteral("xfs"))},
        sectors);
    const RealignPlan p = plan(d, ask({2}));
    QCOMPARE(p.moves.size(), 2);
    QCOMPARE(p.moves[0].number, 1); // moving down: the first one first
    QCOMPARE(p.moves[0].newStart, 2048);
    QCOMPARE(p.moves[0].newLength(), 6151);
    QCOMPARE(p.moves[1].number, 2);
    QCOMPARE(p.moves[1].newStart, 10240);
    QCOMPARE(p.choices[0].taken().way, RealignWay::ShiftPreceding);
}

void RealignPlanTest::fatWithNoFreeSpaceShrinks()
{
    const RealignPlan p = plan(
        disk(QStringLiteral("msdos"),
             {part(1, 63, 200000, Kind::Primary, QStringLiteral("vfat")), part(2, 200001, 400000)},
             400001),
        ask({1}));
    QCOMPARE(p.moves.size(), 1);
    QCOMPARE(p.moves[0].newStart, 2048);
    QCOMPARE(p.moves[0].newEnd, 200000);
    QCOMPARE(p.moves[0].shrinkSectors, 2048 - 63);
}

QTEST_GUILESS_MAIN(RealignPlanTest)
#include "tst_realignplan.moc"
