#pragma once

#include "align/alignmentpolicy.h"
#include "device/sectortopology.h"

// The sizes alignment is judged against, once policy has been applied to what the drive reports.
struct AlignmentGeometry
{
    qint64 logicalSectorSize = 512;
    qint64 physicalReported = 512;
    qint64 physicalAssumed = 4096; // max(reported, 4096) unless the drive is trusted
    qint64 grainBytes = 1 << 20;   // the policy's grain, or a sane larger optimal I/O size
    qint64 alignmentOffset = 0;    // bytes; where the drive's physical sectors really begin
    bool optimalIoHonoured = false;

    qint64 grainSectors() const { return grainBytes / logicalSectorSize; }
};

// A known bogus optimal_io_size some USB bridges report (0xFFFF sectors of 512 bytes).
constexpr qint64 kBogusOptimalIoSize = 33553920;

// Grain boundaries are the sectors s with (s − phase) a multiple of `unit`; the phase comes from
// the drive's alignment offset (0 on almost every drive). Every rounding of a sector to a
// boundary in Partwise goes through these two, so placement, planning and practice disks agree.
qint64 boundaryAtOrAfter(qint64 sector, qint64 unit, qint64 phase = 0);
qint64 boundaryAtOrBefore(qint64 sector, qint64 unit, qint64 phase = 0);

// The phase of `unit`-sized boundaries on this drive, in logical sectors.
qint64 boundaryPhase(const AlignmentGeometry &geometry, qint64 unit);

AlignmentGeometry resolveAlignmentGeometry(const SectorTopology &topology,
                                           const AlignmentPolicy &policy);
