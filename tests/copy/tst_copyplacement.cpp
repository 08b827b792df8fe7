// Copy placement on numbers worked out by hand: starts on the grain, EBR gaps before logical
// partitions, exact sizes kept, spare room to the last partition or in proportion, a smaller
// target taken from the slack above each filesystem's minimum, and refusals with the numbers.

#include "align/copyplacement.h"

#include <QtTest>

using namespace partwise;
using Kind = PartitionInfo::Kind;

namespace {

constexpr qint64 kMiB = 1 << 20;

CopyPlacementPartition part(int number, Kind kind, qint64 bytes, qint64 minimum = 0,
                            bool canGrow = true)
{
    CopyPlacementPartition p;
    p.number = number;
    p.kind = kind;
    p.lengthBytes = bytes;
    p.minimumBytes = minimum;
    p.canGrow = canGrow;
    return p;
}

CopyPlacementRequest request(qint64 diskBytes, const QString &table)
{
    CopyPlacementRequest r;
    freshTableUsableRange(table, diskBytes / 512, 512, &r.targetFirstUsable, &r.targetLastUsable);
    return r;
}

} // namespace

class TestCopyPlacement : public QObject
{
    Q_OBJECT

private slots:
    void usableRanges()
    {
        qint64 first = 0, last = 0;
        freshTableUsableRange(QStringLiteral("gpt"), 2048 * 100, 512, &first, &last);
        QCOMPARE(first, 34);
        QCOMPARE(last, 2048 * 100 - 34);
        freshTableUsableRange(QStringLiteral("gpt"), 256 * 100, 4096, &first, &last);
        QCOMPARE(first, 6);
        QCOMPARE(last, 256 * 100 - 6);
        freshTableUsableRange(QStringLiteral("msdos"), 2048 * 100, 512, &first, &last);
        QCOMPARE(first, 19); // libparted zeroes sectors 0-18 (9 KiB and one sector)
        QCOMPARE(last, 2048 * 100 - 20);
    }

    void xpAtSector63KeepsItsSizeOnTheGrain()
    {
        CopyPlacementRequest r = request(2048 * kMiB, QStringLiteral("msdos"));
        r.partitions << part(1, Kind::Primary, 1879542LL * 512);
        const CopyPlacement p = placeCopy(r);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.placed[0].startSector, 2048);
        QCOMPARE(p.placed[0].endSector, 2048 + 1879542 - 1);
    }

    void logicalsFollowTheirEbrGap()
    {
        // old-fdisk: 1 primary, an extended with two logicals (sizes in sectors).
        CopyPlacementRequest r = request(2048 * kMiB, QStringLiteral("msdos"));
        r.partitions << part(1, Kind::Primary, 626472LL * 512)
                     << part(2, Kind::Extended, 1461915LL * 512)
                     << part(5, Kind::Logical, 835317LL * 512)
                     << part(6, Kind::Logical, 626472LL * 512);
        const CopyPlacement p = placeCopy(r);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.placed[0].startSector, 2048);
        // 2048 + 626472 = 628520 -> next MiB boundary 628736 holds the extended partition
        QCOMPARE(p.placed[1].startSector, 628736);
        QCOMPARE(p.placed[2].startSector, 628736 + 2048); // its EBR in the grain before it
        // 630784 + 835317 = 1466101 -> 1466368 (EBR), logical at 1468416
        QCOMPARE(p.placed[3].startSector, 1468416);
        QCOMPARE(p.placed[1].endSector, p.placed[3].endSector);
        QCOMPARE(p.placed[3].endSector - p.placed[3].startSector + 1, 626472);
    }

    void growLastFillsTheDisk()
    {
        CopyPlacementRequest r = request(100 * kMiB, QStringLiteral("gpt"));
        r.growth = CopyGrowth::GrowLast;
        r.partitions << part(1, Kind::Primary, 10 * kMiB) << part(2, Kind::Primary, 20 * kMiB);
        const CopyPlacement p = placeCopy(r);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.placed[0].endSector, 2048 + 20480 - 1); // kept
        QCOMPARE(p.placed[1].startSector, 2048 + 20480);
        // The last full MiB before the backup GPT (which takes the last 33 sectors).
        QCOMPARE(p.placed[1].endSector, 99 * 2048 - 1);
    }

    void proportionalSharesTheRoom()
    {
        CopyPlacementRequest r = request(100 * kMiB, QStringLiteral("gpt"));
        r.growth = CopyGrowth::Proportional;
        r.partitions << part(1, Kind::Primary, 10 * kMiB) << part(2, Kind::Primary, 30 * kMiB);
        const CopyPlacement p = placeCopy(r);
        QVERIFY2(p.ok, qPrintable(p.error));
        // 1 MiB reserved, 98 MiB usable on the grain: 58 MiB spare, a quarter to the first
        // rounded down to the MiB (14), the rest (44) to the second.
        QCOMPARE(p.placed[0].endSector - p.placed[0].startSector + 1, 24 * 2048);
        QCOMPARE(p.placed[1].endSector - p.placed[1].startSector + 1, 74 * 2048);
        QCOMPARE(p.placed[1].endSector, 99 * 2048 - 1);
    }

    void smallerTargetTakesTheSlack()
    {
        CopyPlacementRequest r = request(64 * kMiB, QStringLiteral("gpt"));
        // 40 + 40 MiB onto 62 usable MiB: 18 MiB must go. The first can shrink to 10 MiB
        // (slack 30), the second not at all.
        r.partitions << part(1, Kind::Primary, 40 * kMiB, 10 * kMiB)
                     << part(2, Kind::Primary, 40 * kMiB);
        const CopyPlacement p = placeCopy(r);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.placed[0].endSector - p.placed[0].startSector + 1, 22 * 2048);
        QCOMPARE(p.placed[1].endSector - p.placed[1].startSector + 1, 40 * 2048);
        QVERIFY(p.placed[1].endSector <= 63 * 2048 - 1);
    }

    void tooLittleSlackIsRefusedWithTheNumbers()
    {
        CopyPlacementRequest r = request(64 * kMiB, QStringLiteral("gpt"));
        r.partitions << part(1, Kind::Primary, 40 * kMiB, 35 * kMiB)
                     << part(2, Kind::Primary, 40 * kMiB);
        const CopyPlacement p = placeCopy(r);
        QVERIFY(!p.ok);
        QVERIFY2(p.error.contains(QLatin1String("18 MiB")) &&
                     p.error.contains(QLatin1String("5 MiB")),
                 qPrintable(p.error));
    }

    void biosBootReservationComesFirst()
    {
        CopyPlacementRequest r = request(64 * kMiB, QStringLiteral("gpt"));
        r.reservedLeadingBytes = 1 * kMiB;
        r.partitions << part(1, Kind::Primary, 10 * kMiB);
        const CopyPlacement p = placeCopy(r);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.reservedStart, 2048);
        QCOMPARE(p.reservedEnd, 4095);
        QCOMPARE(p.placed[0].startSector, 4096);
    }
};

QTEST_GUILESS_MAIN(TestCopyPlacement)
#include "tst_copyplacement.moc"
