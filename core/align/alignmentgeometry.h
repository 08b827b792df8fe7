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

AlignmentGeometry resolveAlignmentGeometry(const SectorTopology &topology,
                                           const AlignmentPolicy &policy);
