#pragma once

#include "align/alignmentverdict.h"
#include "table/disklayout.h"

#include <QList>

namespace partwise {

// The alignment of every region of one disk under one policy.
struct MisalignmentReport
{
    AlignmentGeometry geometry;
    QList<AlignmentVerdict> verdicts; // parallel to DiskLayout::regions

    int partitionCount() const; // partitions judged (containers and free space excluded)
    int misalignedCount() const;
    int sectorAlignedCount() const;
    bool hasMisaligned() const { return misalignedCount() > 0; }
};

MisalignmentReport analyzeAlignment(const DiskLayout &layout, const AlignmentPolicy &policy);

} // namespace partwise
