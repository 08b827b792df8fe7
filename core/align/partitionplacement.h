#pragma once

#include "align/alignmentgeometry.h"

#include <QString>

namespace partwise {

// "Align to" in the create and resize dialogs.
enum class AlignTo { Grain, FourKiB, Cylinder, None };

QString alignToName(AlignTo mode);                     // "mib", "4k", "cylinder", "none"
bool parseAlignTo(const QString &text, AlignTo *mode); // accepts those names (and "grain")

// How a partition's end is rounded once its start is placed.
enum class EndRounding {
    Down, // a new partition: just before a boundary, so the next one can start on it
    Up,   // a resized or moved one: never fewer sectors than asked (data may fill them all); up
          // to just before the next boundary when there is room, otherwise exactly as asked
};

// Where a new partition may go: a stretch of free space and the table's limits.
struct PlacementRequest
{
    qint64 freeStart = 0; // first free sector
    qint64 freeEnd = 0;   // last free sector (inclusive)
    qint64 firstUsable = 0;
    qint64 lastUsable = 0;       // before a GPT's backup area
    qint64 precedingSectors = 0; // leave this much free before the partition
    qint64 sizeSectors = -1;     // -1: all the room there is
    bool logical = false;        // needs its EBR in front of it
    AlignTo alignTo = AlignTo::Grain;
    EndRounding endRounding = EndRounding::Down;
};

struct Placement
{
    bool ok = false;
    qint64 startSector = 0;
    qint64 endSector = 0;
    QString error;
};

// The rules of ARCHITECTURE.md: a partition starts on the first boundary of the chosen unit inside
// the free space (for a logical partition, one unit past the space's start so its EBR sits in
// front), and ends just before a boundary so the next one can start on it; never past the
// table's last usable sector.
Placement placePartition(const PlacementRequest &request, const AlignmentGeometry &geometry);

// The unit a mode aligns to, in logical sectors (the grain for AlignTo::Grain).
qint64 alignmentUnitSectors(AlignTo mode, const AlignmentGeometry &geometry);

// The last sector of a partition that starts at `start` and was asked to end at `end`, rounded
// as `rounding` says to the boundaries of `mode` (the drive's alignment offset included), never
// past `maxEnd` and never before `start`.
qint64 placeEnd(qint64 start, qint64 end, qint64 maxEnd, AlignTo mode,
                const AlignmentGeometry &geometry, EndRounding rounding);

} // namespace partwise
