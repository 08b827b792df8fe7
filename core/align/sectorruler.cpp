#include "align/sectorruler.h"

#include "base/multiple.h"

#include <algorithm>

namespace partwise {

namespace {

// Floor division and its remainder: bytes before the first physical sector (a drive whose
// alignment offset is not 0) belong to sector -1, not to sector 0.
qint64 floorDiv(qint64 value, qint64 unit)
{
    return value >= 0 ? value / unit : -((-value + unit - 1) / unit);
}

qint64 floorMod(qint64 value, qint64 unit)
{
    return value - floorDiv(value, unit) * unit;
}

// Marks of `unit` bytes numbered from `origin`, cut to the window.
std::vector<RulerSpan> spans(qint64 origin, qint64 unit, qint64 begin, qint64 end)
{
    std::vector<RulerSpan> out;
    for (qint64 n = floorDiv(begin - origin, unit);; ++n) {
        const qint64 from = origin + n * unit;
        if (from >= end)
            break;
        out.push_back({std::max(from, begin), std::min(from + unit, end), n});
    }
    return out;
}

RulerBlock blockAt(qint64 begin, qint64 end, qint64 number, qint64 origin, qint64 physical)
{
    RulerBlock block;
    block.begin = begin;
    block.end = end;
    block.number = number;
    block.firstPhysical = floorDiv(begin - origin, physical);
    block.lastPhysical = floorDiv(end - 1 - origin, physical);
    const bool startPartial = floorMod(begin - origin, physical) != 0;
    const bool endPartial = floorMod(end - origin, physical) != 0;
    if (block.firstPhysical == block.lastPhysical)
        block.partialSectors = startPartial || endPartial ? 1 : 0;
    else
        block.partialSectors = int(startPartial) + int(endPartial);
    return block;
}

// Where the region's blocks are laid from, and the byte the ruler is centred on.
void placeFocus(const AlignmentGeometry &g, const RulerRequest &request, SectorRuler &ruler,
                qint64 *blockOrigin)
{
    const qint64 logical = ruler.logicalSize;
    ruler.regionBegin = request.regionFirstSector * logical;
    ruler.regionEnd = (request.regionLastSector + 1) * logical;
    switch (request.edge) {
    case RulerEdge::Start:
        ruler.focusByte = ruler.regionBegin;
        *blockOrigin = ruler.regionBegin;
        break;
    case RulerEdge::End:
        ruler.focusByte = ruler.regionEnd;
        *blockOrigin = ruler.regionBegin;
        break;
    case RulerEdge::Free: {
        const qint64 grain = g.grainSectors();
        const qint64 start =
            boundaryAtOrAfter(request.regionFirstSector, grain, boundaryPhase(g, grain));
        ruler.focusByte = std::min(start * logical, ruler.regionEnd);
        *blockOrigin = ruler.focusByte;
        break;
    }
    }
}

} // namespace

bool SectorRuler::blocksStraddle() const
{
    return std::any_of(blocks.begin(), blocks.end(),
                       [](const RulerBlock &block) { return block.straddles(); });
}

int SectorRuler::straddlingBlocksShown() const
{
    return int(std::count_if(blocks.begin(), blocks.end(),
                             [](const RulerBlock &block) { return block.straddles(); }));
}

SectorRuler buildSectorRuler(const AlignmentGeometry &g, const RulerRequest &request)
{
    SectorRuler ruler;
    ruler.edge = request.edge;
    ruler.logicalSize = g.logicalSectorSize;
    ruler.physicalSize = g.physicalAssumed;
    ruler.blockSize = std::max<qint64>(request.blockSize, 512);
    ruler.grainBytes = g.grainBytes;
    ruler.physicalOrigin = floorMod(g.alignmentOffset, ruler.physicalSize);
    const qint64 grainOrigin = g.alignmentOffset % g.logicalSectorSize == 0
                                   ? floorMod(g.alignmentOffset, g.grainBytes)
                                   : 0;

    qint64 blockOrigin = 0;
    placeFocus(g, request, ruler, &blockOrigin);

    const qint64 window = roundUp(std::clamp(request.windowBytes, kRulerMinWindow, kRulerMaxWindow),
                                  ruler.logicalSize);
    ruler.windowBegin =
        std::max<qint64>(0, roundDown(ruler.focusByte - window / 2, ruler.logicalSize));
    ruler.windowEnd = ruler.windowBegin + window;

    ruler.logical = spans(0, ruler.logicalSize, ruler.windowBegin, ruler.windowEnd);
    ruler.physical =
        spans(ruler.physicalOrigin, ruler.physicalSize, ruler.windowBegin, ruler.windowEnd);
    for (qint64 at = grainOrigin +
                     floorDiv(ruler.windowBegin - grainOrigin, ruler.grainBytes) * ruler.grainBytes;
         at < ruler.windowEnd; at += ruler.grainBytes)
        if (at >= ruler.windowBegin)
            ruler.grainLines.push_back(at);

    // Whole blocks of the region only: a filesystem never writes a partial block past its end.
    const qint64 firstBlock =
        std::max<qint64>(0, floorDiv(ruler.windowBegin - blockOrigin, ruler.blockSize));
    for (qint64 n = firstBlock;; ++n) {
        const qint64 begin = blockOrigin + n * ruler.blockSize;
        const qint64 end = begin + ruler.blockSize;
        if (begin >= ruler.windowEnd || end > ruler.regionEnd)
            break;
        if (end > ruler.windowBegin)
            ruler.blocks.push_back(
                blockAt(begin, end, n, ruler.physicalOrigin, ruler.physicalSize));
    }

    ruler.focusInPhysical = floorMod(ruler.focusByte - ruler.physicalOrigin, ruler.physicalSize);
    ruler.focusInGrain = floorMod(ruler.focusByte - grainOrigin, ruler.grainBytes);
    return ruler;
}

} // namespace partwise
