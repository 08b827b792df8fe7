#pragma once

#include "align/alignmentpolicy.h"
#include "device/sectortopology.h"

#include <QString>

namespace partwise {

// Where the physical sector size alignment is judged against came from: what the kernel or the
// drive itself reports, the policy's 4096-byte assumption, or a timing probe's measurement.
enum class PhysicalSource { Reported, Assumed, Measured };

// "reported", "assumed" or "measured", as `check --json` writes it.
QString physicalSourceName(PhysicalSource source);

// The sizes alignment is judged against, once policy has been applied to what the drive reports.
//
// Which physical size is believed: the larger of the kernel's and the drive's own answer is
// "reported"; unless the user trusts the drive, anything below 4096 is "assumed" to be 4096
// (ARCHITECTURE.md: drives lie). A size the timing probe measured on this drive wins when it is at
// least that large, and then its alignment offset replaces the kernel's: a measurement is the
// only evidence of a drive's real behaviour, and a smaller one (a cache hiding the penalty) is
// never allowed to weaken the policy.
struct AlignmentGeometry
{
    qint64 logicalSectorSize = 512;
    qint64 physicalReported = 512;      // the kernel's (sysfs/libblkid, or the image file's)
    qint64 physicalDrive = 0;           // the drive's own answer through smartctl; 0 = not known
    qint64 physicalMeasured = 0;        // the timing probe's remembered size; 0 = none
    qint64 alignmentOffsetMeasured = 0; // bytes; meaningful only with physicalMeasured
    double writePenaltyMeasured = 0;    // the probe's straddling/whole write time; 0: none
    qint64 physicalAssumed = 4096;      // the size every verdict and placement uses
    PhysicalSource physicalSource = PhysicalSource::Assumed;
    qint64 grainBytes = 1 << 20;        // the policy's grain, or a sane larger optimal I/O size
    qint64 alignmentOffsetReported = 0; // bytes; the kernel's
    qint64 alignmentOffset = 0; // bytes; where the physical sectors begin (measured or reported)
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

} // namespace partwise
