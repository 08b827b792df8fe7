#include "align/alignmentgeometry.h"

#include "base/multiple.h"

#include <algorithm>
#include <numeric>

namespace partwise {

namespace {

// An optimal I/O size is worth honouring when it is larger than the grain, a whole number of
// physical sectors, and not one of the values broken firmware reports.
bool isSaneOptimalIo(qint64 optimal, qint64 grain, qint64 physical)
{
    constexpr qint64 kLargestBelievable = qint64(256) << 20;
    return optimal > grain && optimal != kBogusOptimalIoSize && optimal <= kLargestBelievable &&
           optimal % physical == 0;
}

// A measurement Partwise can use: a whole number of logical sectors, its offset inside it.
bool isUsableMeasurement(const SectorTopology &t, qint64 logical)
{
    const qint64 size = t.physicalSectorSizeMeasured;
    return size >= logical && size % logical == 0 && t.alignmentOffsetMeasured >= 0 &&
           t.alignmentOffsetMeasured < size;
}

} // namespace

QString physicalSourceName(PhysicalSource source)
{
    switch (source) {
    case PhysicalSource::Reported:
        return QStringLiteral("reported");
    case PhysicalSource::Assumed:
        return QStringLiteral("assumed");
    case PhysicalSource::Measured:
        return QStringLiteral("measured");
    }
    return QString();
}

qint64 boundaryAtOrAfter(qint64 sector, qint64 unit, qint64 phase)
{
    const qint64 k = sector - phase;
    return (k <= 0 ? 0 : roundUp(k, unit)) + phase;
}

qint64 boundaryAtOrBefore(qint64 sector, qint64 unit, qint64 phase)
{
    const qint64 k = sector - phase;
    return (k <= 0 ? 0 : roundDown(k, unit)) + phase;
}

qint64 boundaryPhase(const AlignmentGeometry &g, qint64 unit)
{
    return g.alignmentOffset % g.logicalSectorSize == 0
               ? (g.alignmentOffset / g.logicalSectorSize) % unit
               : 0;
}

AlignmentGeometry resolveAlignmentGeometry(const SectorTopology &topology,
                                           const AlignmentPolicy &policy)
{
    AlignmentGeometry g;
    g.logicalSectorSize = std::max<qint64>(topology.logicalSectorSize, 512);
    g.physicalReported = std::max(topology.physicalSectorSize, g.logicalSectorSize);
    g.physicalDrive = topology.physicalSectorSizeDrive > 0
                          ? std::max(topology.physicalSectorSizeDrive, g.logicalSectorSize)
                          : 0;
    g.alignmentOffsetReported = topology.alignmentOffset;
    g.alignmentOffset = topology.alignmentOffset;

    const qint64 reported = std::max(g.physicalReported, g.physicalDrive);
    g.physicalAssumed = policy.trustDrive ? reported : std::max<qint64>(reported, 4096);
    g.physicalSource =
        g.physicalAssumed == reported ? PhysicalSource::Reported : PhysicalSource::Assumed;
    if (isUsableMeasurement(topology, g.logicalSectorSize)) {
        g.physicalMeasured = topology.physicalSectorSizeMeasured;
        g.alignmentOffsetMeasured = topology.alignmentOffsetMeasured;
        g.writePenaltyMeasured = topology.writePenaltyMeasured;
        if (g.physicalMeasured >= g.physicalAssumed) {
            g.physicalAssumed = g.physicalMeasured;
            g.alignmentOffset = g.alignmentOffsetMeasured;
            g.physicalSource = PhysicalSource::Measured;
        }
    }

    // A grain is a whole number of logical sectors; round odd requests up to the next one.
    qint64 grain = std::max(policy.grainBytes, g.logicalSectorSize);
    grain = roundUp(grain, g.logicalSectorSize);
    if (isSaneOptimalIo(topology.optimalIoSize, grain, g.physicalAssumed)) {
        grain = std::lcm(grain, topology.optimalIoSize);
        g.optimalIoHonoured = true;
    }
    g.grainBytes = grain;
    return g;
}

} // namespace partwise
