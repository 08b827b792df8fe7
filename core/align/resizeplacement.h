#pragma once

#include "align/partitionplacement.h"
#include "table/disklayout.h"

namespace partwise {

// Where a partition may go when it is resized or moved: its own sectors and the free space
// right before and after it (of its own kind: a logical partition stays inside the extended
// one), within the table's usable sectors. Nothing else: it never jumps over a neighbour.
struct ResizeRange
{
    bool ok = false;        // false: there is no such partition
    qint64 lowestStart = 0; // the first sector it may start on
    qint64 highestEnd = 0;  // the last sector it may end on
    qint64 start = 0;       // where it is now
    qint64 end = 0;
    bool logical = false; // needs its EBR in front when it moves down

    qint64 freeBeforeSectors() const { return start - lowestStart; }
    qint64 freeAfterSectors() const { return highestEnd - end; }
    qint64 lengthSectors() const { return highestEnd - lowestStart + 1; }
};

ResizeRange resizeRange(const DiskLayout &layout, int number);

struct ResizeRequest
{
    ResizeRange range;
    qint64 newStart = -1;    // the first sector asked for; -1 keeps the start
    qint64 sizeSectors = -1; // -1: all the room up to range.highestEnd
    AlignTo alignTo = AlignTo::Grain;
};

// The partition's new sectors. A new start is placed as a new partition would be in the range
// (the first boundary at or after it, see placePartition); a kept start stays where it is, even
// off the grain. The end never gives the partition fewer sectors than asked for, since its
// data may fill them: it goes up to just before the next boundary, so a neighbour can follow
// aligned, when the room allows, and stays as asked otherwise.
Placement placeResize(const ResizeRequest &request, const AlignmentGeometry &geometry);

} // namespace partwise
