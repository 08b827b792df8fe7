#pragma once

#include "align/alignmentgeometry.h"
#include "table/partitioninfo.h"

namespace partwise {

enum class AlignmentStatus {
    Aligned,       // starts on the grain
    SectorAligned, // on a physical sector, not on the grain: a notice
    Misaligned,    // not on a physical sector: every 4 KiB write straddles two
    Container,     // an extended partition holds only EBRs and is exempt
    NotApplicable, // free space
};

QString alignmentStatusName(AlignmentStatus status); // "aligned", "sector-aligned", ...

// Where a start sector falls against the physical sector size and the grain.
struct AlignmentVerdict
{
    AlignmentStatus status = AlignmentStatus::NotApplicable;
    qint64 startByte = 0;         // relative to the physical alignment (offset subtracted)
    qint64 misalignmentBytes = 0; // past the previous physical-sector boundary
    qint64 offsetIn4KiB = 0;      // startByte mod 4096
    qint64 offsetInGrain = 0;     // startByte mod grain
    qint64 offsetInPhysical = 0;  // same as misalignmentBytes; named for the info panel

    // "starts 3,584 bytes past a 4 KiB boundary" style explanation.
    QString explanation(const AlignmentGeometry &geometry) const;
};

AlignmentVerdict judgeStart(qint64 startSector, const AlignmentGeometry &geometry);
// The same for a byte offset from the disk's start: where a layer's data (a LUKS payload, an
// LVM physical volume's first extent) begins is judged exactly like a partition's start.
AlignmentVerdict judgeByte(qint64 absoluteByte, const AlignmentGeometry &geometry);
AlignmentVerdict judgePartition(const PartitionInfo &partition, const AlignmentGeometry &geometry);

} // namespace partwise
