// Realignment planning on hand-made layouts: each expected sector is worked out from the rule
// (nearest 1 MiB boundary = next multiple of 2048 sectors of 512 bytes), not by the planner.
#include "align/realignplan.h"

#include <QtTest>

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

RealignPlan plan(const DiskLayout &d, RealignRequest request = {})
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

} // namespace

class RealignPlanTest : public QObject
{
    Q_OBJECT
private slots:
    void xpPartitionMovesUpIntoFreeSpace();
    void chainMovesLastFirst();
    void noRoomMovesDown();
    void noRoomAndXfsIsExplained();
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
}

void RealignPlanTest::noRoomMovesDown()
{
    // Partition 2 is followed directly by partition 3, but has room before it.
    const RealignPlan p = plan(disk(QStringLiteral("msdos"),
                                    {part(1, 2048, 4095), part(2, 8001, 20000),
                                     part(3, 20001, 40000, Kind::Primary, QStringLiteral("xfs"))},
                                    60000),
                               RealignRequest{{2}, false});
    const PartitionMove *m = moveOf(p, 2);
    QVERIFY(m);
    QCOMPARE(m->newStart, 6144); // the boundary below 8001
}

void RealignPlanTest::noRoomAndXfsIsExplained()
{
    const RealignPlan p = plan(
        disk(QStringLiteral("msdos"),
             {part(1, 63, 200000, Kind::Primary, QStringLiteral("xfs")), part(2, 200001, 400000)}),
        RealignRequest{{1}, false});
    QVERIFY(p.moves.isEmpty());
    QCOMPARE(p.skipped.size(), 1);
    QVERIFY(p.skipped[0].reason.contains(QLatin1String("XFS cannot shrink")));
}

void RealignPlanTest::fewSectorsShortShrinksExt4()
{
    const RealignPlan p = plan(
        disk(QStringLiteral("msdos"),
             {part(1, 63, 200000), part(2, 200001, 400000, Kind::Primary, QStringLiteral("xfs"))}),
        RealignRequest{{1}, false});
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
             RealignRequest{{5, 6}, false});
    const PartitionMove *five = moveOf(p, 5);
    const PartitionMove *six = moveOf(p, 6);
    QVERIFY(five && six);
    QCOMPARE(six->newStart, 403456); // next multiple of 2048 after 401625
    QCOMPARE(five->newStart, 16384);
    QVERIFY(five->newEnd <= six->newStart - 2); // one sector stays free for partition 6's EBR
    QVERIFY(six->newEnd <= 1000000);            // inside the extended partition
    QCOMPARE(p.moves.first().number, 6);
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
    const RealignPlan all = plan(d, RealignRequest{{}, true});
    QCOMPARE(all.moves.size(), 1);
    QCOMPARE(all.moves[0].newStart, 2048);
}

QTEST_GUILESS_MAIN(RealignPlanTest)
#include "tst_realignplan.moc"
