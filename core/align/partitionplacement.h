#pragma once

#include "align/alignmentgeometry.h"

#include <QString>

// "Align to" in the create and resize dialogs.
enum class AlignTo { Grain, FourKiB, Cylinder, None };

QString alignToName(AlignTo mode);                     // "mib", "4k", "cylinder", "none"
bool parseAlignTo(const QString &text, AlignTo *mode); // accepts those names (and "grain")

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
};

struct Placement
{
    bool ok = false;
    qint64 startSector = 0;
    qint64 endSector = 0;
    QString error;
};

// The rules of DESIGN.md: a partition starts on the first boundary of the chosen unit inside
// the free space (for a logical partition, one unit past the space's start so its EBR sits in
// front), and ends just before a boundary so the next one can start on it; never past the
// table's last usable sector.
Placement placePartition(const PlacementRequest &request, const AlignmentGeometry &geometry);

// The unit a mode aligns to, in logical sectors (the grain for AlignTo::Grain).
qint64 alignmentUnitSectors(AlignTo mode, const AlignmentGeometry &geometry);
