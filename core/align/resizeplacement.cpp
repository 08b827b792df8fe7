#include "align/resizeplacement.h"

#include "base/humansize.h"

#include <QCoreApplication>

#include <algorithm>

namespace partwise {

ResizeRange resizeRange(const DiskLayout &layout, int number)
{
    ResizeRange range;
    const QList<PartitionInfo> &regions = layout.regions;
    int index = -1;
    for (int i = 0; i < regions.size() && index < 0; ++i)
        if (!regions[i].isFree() && regions[i].number == number)
            index = i;
    if (index < 0)
        return range;
    const PartitionInfo &p = regions[index];
    range.logical = p.kind == PartitionInfo::Kind::Logical;
    // Free space inside the extended partition belongs to logicals only, and the rest to the
    // others: libparted refuses anything that crosses the extended partition's border.
    const auto freeNeighbour = [&](int i) {
        return i >= 0 && i < regions.size() && regions[i].isFree() &&
               regions[i].insideExtended == range.logical;
    };
    const qint64 lo = freeNeighbour(index - 1) ? regions[index - 1].startSector : p.startSector;
    const qint64 hi = freeNeighbour(index + 1) ? regions[index + 1].endSector : p.endSector;
    range.ok = true;
    range.start = p.startSector;
    range.end = p.endSector;
    range.lowestStart = std::min(p.startSector, std::max(lo, layout.firstUsableSector));
    range.highestEnd = std::max(p.endSector, std::min(hi, layout.lastUsableSector));
    return range;
}

Placement placeResize(const ResizeRequest &r, const AlignmentGeometry &g)
{
    const ResizeRange &range = r.range;
    // "All the room" grows the partition anyway, so its end may come down to a boundary, but
    // never below the sectors it has now.
    const bool rest = r.sizeSectors <= 0;
    const EndRounding rounding = rest ? EndRounding::Down : EndRounding::Up;
    const qint64 keep = range.end - range.start + 1;
    Placement p;
    if (r.newStart >= 0) {
        PlacementRequest req;
        req.freeStart = range.lowestStart;
        req.freeEnd = range.highestEnd;
        req.firstUsable = range.lowestStart;
        req.lastUsable = range.highestEnd;
        req.precedingSectors = r.newStart - range.lowestStart;
        req.sizeSectors = r.sizeSectors;
        req.logical = range.logical && range.lowestStart != range.start;
        req.alignTo = r.alignTo;
        req.endRounding = rounding;
        p = placePartition(req, g);
    } else {
        p.startSector = range.start;
        const qint64 maxEnd = range.highestEnd;
        const qint64 end = rest ? maxEnd : range.start + r.sizeSectors - 1;
        if (end > maxEnd) {
            p.error = QCoreApplication::translate(
                          "Placement", "The partition cannot grow that far: only %1 free after it.")
                          .arg(humanSize((maxEnd - range.end) * g.logicalSectorSize));
            return p;
        }
        p.ok = true;
        p.endSector = placeEnd(range.start, end, maxEnd, r.alignTo, g, rounding);
    }
    if (p.ok && rest && p.endSector - p.startSector + 1 < keep)
        p.endSector = range.highestEnd;
    return p;
}

} // namespace partwise
