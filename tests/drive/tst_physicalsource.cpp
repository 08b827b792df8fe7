// Which physical sector size alignment is judged against, and where it came from, for drives
// injected through SectorTopology (a 512e drive cannot be emulated on a loop device). Expected
// byte counts are worked out in the comments, not taken from core/align.
#include "align/alignmentgeometry.h"
#include "align/alignmentverdict.h"

#include <QtTest>

using namespace partwise;

namespace {

SectorTopology drive(qint64 kernel, qint64 own = 0, qint64 measured = 0, qint64 offset = 0)
{
    SectorTopology t;
    t.physicalSectorSize = kernel;
    t.physicalSectorSizeDrive = own;
    t.physicalSectorSizeMeasured = measured;
    t.alignmentOffsetMeasured = offset;
    return t;
}

AlignmentPolicy trusting()
{
    AlignmentPolicy p;
    p.trustDrive = true;
    return p;
}

} // namespace

class PhysicalSourceTest : public QObject
{
    Q_OBJECT

private slots:
    void lyingDriveIsAssumedFourKiB()
    {
        const AlignmentGeometry g = resolveAlignmentGeometry(drive(512), {});
        QCOMPARE(g.physicalAssumed, 4096);
        QCOMPARE(g.physicalSource, PhysicalSource::Assumed);
        QCOMPARE(physicalSourceName(g.physicalSource), QStringLiteral("assumed"));
    }
    void honestReportIsReported()
    {
        const AlignmentGeometry g = resolveAlignmentGeometry(drive(4096), {});
        QCOMPARE(g.physicalAssumed, 4096);
        QCOMPARE(g.physicalSource, PhysicalSource::Reported);
    }
    void drivesOwnAnswerBeatsTheBridge()
    {
        // A USB bridge passes on 512; the drive's IDENTIFY says 4096; the user trusts the drive.
        const AlignmentGeometry g = resolveAlignmentGeometry(drive(512, 4096), trusting());
        QCOMPARE(g.physicalReported, 512);
        QCOMPARE(g.physicalDrive, 4096);
        QCOMPARE(g.physicalAssumed, 4096);
        QCOMPARE(g.physicalSource, PhysicalSource::Reported);
    }
    void trustedTrue512IsReported()
    {
        const AlignmentGeometry g = resolveAlignmentGeometry(drive(512, 512), trusting());
        QCOMPARE(g.physicalAssumed, 512);
        QCOMPARE(g.physicalSource, PhysicalSource::Reported);
    }
    void measurementWinsWhenLarger()
    {
        const AlignmentGeometry g = resolveAlignmentGeometry(drive(4096, 4096, 16384), trusting());
        QCOMPARE(g.physicalAssumed, 16384);
        QCOMPARE(g.physicalSource, PhysicalSource::Measured);
    }
    void measurementEqualToTheAssumptionBringsItsOffset()
    {
        // The Windows XP jumper: 4 KiB sectors with LBA 63 on a boundary, 63 × 512 = 32256 =
        // 7 × 4096 + 3584. The kernel knows nothing of it; the probe measured offset 3584.
        const AlignmentGeometry g = resolveAlignmentGeometry(drive(512, 0, 4096, 3584), {});
        QCOMPARE(g.physicalAssumed, 4096);
        QCOMPARE(g.physicalSource, PhysicalSource::Measured);
        QCOMPARE(g.alignmentOffset, 3584);
        QCOMPARE(g.alignmentOffsetReported, 0);
        QCOMPARE(judgeStart(63, g).misalignmentBytes, 0);
        // 2048 × 512 − 3584 = 1044992 = 255 × 4096 + 512.
        QCOMPARE(judgeStart(2048, g).misalignmentBytes, 512);
        QCOMPARE(judgeStart(2048, g).status, AlignmentStatus::Misaligned);
    }
    void smallerMeasurementIsShownNotUsed()
    {
        const AlignmentGeometry g = resolveAlignmentGeometry(drive(512, 0, 2048, 1024), {});
        QCOMPARE(g.physicalMeasured, 2048);
        QCOMPARE(g.physicalAssumed, 4096);
        QCOMPARE(g.physicalSource, PhysicalSource::Assumed);
        QCOMPARE(g.alignmentOffset, 0);
    }
    void measurementSmallerThanALogicalSectorIsIgnored()
    {
        SectorTopology t = drive(4096, 0, 512, 0);
        t.logicalSectorSize = 4096;
        const AlignmentGeometry g = resolveAlignmentGeometry(t, {});
        QCOMPARE(g.physicalMeasured, 0);
        QCOMPARE(g.physicalSource, PhysicalSource::Reported);
    }
};

QTEST_GUILESS_MAIN(PhysicalSourceTest)
#include "tst_physicalsource.moc"
