#pragma once

// The sector ruler: the bytes around one edge of a region drawn as three rows, so that one sees
// why a misaligned start costs what it costs.
//
//   logical sectors   |   |   |   |   |   |   |   |   |   |   |   |   |   |   |   |
//   physical sectors  |               |               |               |
//   filesystem blocks         |XXXXXXXXXXXXXXX|XXXXXXXXXXXXXXX|
//                             ^ the partition's first byte
//
// The filesystem writes whole blocks laid from the partition's first byte; the drive writes
// whole physical sectors. A block that does not cover whole physical sectors (it starts or ends
// inside one) makes the drive read the sectors it shares, change them, and write them back: a
// read-modify-write for every write of that block. The ruler says, block by block, which
// sectors each one touches and which it only partly covers.
//
// Everything is in bytes from the start of the disk. Physical sectors begin at the drive's
// alignment offset (where LBA 0 falls inside the first physical sector), and grain boundaries at
// that offset too, as everywhere in core/align. The ruler is a model only: the GUI draws it and
// the captions are written from its numbers.

#include "align/alignmentgeometry.h"

#include <QtGlobal>

#include <vector>

namespace partwise {

// Which edge of a region the ruler looks at.
enum class RulerEdge {
    Start, // a partition's first byte: its blocks start there
    End,   // a partition's last byte: its blocks end at or before it
    Free,  // free space: where Partwise would start a new partition in it
};

// One mark on a row: [begin, end) in bytes, and the number it has on the disk.
struct RulerSpan
{
    qint64 begin = 0;
    qint64 end = 0;
    qint64 number = 0; // LBA, physical sector number, or block number within the partition
};

struct RulerBlock : RulerSpan
{
    qint64 firstPhysical = 0; // the physical sectors it touches, first..last
    qint64 lastPhysical = 0;
    int partialSectors = 0; // how many of them it covers only in part (0, 1 or 2)
    bool straddles() const { return partialSectors > 0; }
};

struct SectorRuler
{
    RulerEdge edge = RulerEdge::Start;
    qint64 windowBegin = 0; // bytes shown, [windowBegin, windowEnd)
    qint64 windowEnd = 0;
    qint64 focusByte = 0;   // the edge: a first byte, one past a last byte, or a new start
    qint64 regionBegin = 0; // the region's bytes, [regionBegin, regionEnd)
    qint64 regionEnd = 0;

    qint64 logicalSize = 512;
    qint64 physicalSize = 4096;
    qint64 blockSize = 4096;
    qint64 grainBytes = 1 << 20;
    qint64 physicalOrigin = 0; // byte where physical sector 0 begins (the alignment offset)

    std::vector<RulerSpan> logical; // those inside the window (cut to it)
    std::vector<RulerSpan> physical;
    std::vector<RulerBlock> blocks; // the region's blocks inside the window
    std::vector<qint64> grainLines; // grain boundaries inside the window

    qint64 focusInPhysical = 0; // focusByte past the physical sector boundary before it
    qint64 focusInGrain = 0;    // and past the grain boundary before it

    // Blocks laid from the region's start straddle physical sectors (every one of them does,
    // as they all have the same offset).
    bool blocksStraddle() const;
    int straddlingBlocksShown() const;
};

struct RulerRequest
{
    RulerEdge edge = RulerEdge::Start;
    qint64 regionFirstSector = 0;
    qint64 regionLastSector = 0;
    qint64 blockSize = 4096;
    qint64 windowBytes = 16384; // how much to show; rounded to whole logical sectors
};

// The smallest and largest windows worth drawing: a few sectors, a few MiB.
constexpr qint64 kRulerMinWindow = 4096;
constexpr qint64 kRulerMaxWindow = qint64(4) << 20;

// The ruler for `request` on a drive of geometry `g` (the physical size in force: measured,
// reported or assumed). The window is centred on the edge, clamped to the disk's first byte.
SectorRuler buildSectorRuler(const AlignmentGeometry &g, const RulerRequest &request);

} // namespace partwise
