#include "align/partitionplacement.h"

#include <QCoreApplication>

#include <algorithm>

namespace partwise {

namespace {

// Legacy DOS geometry: 255 heads × 63 sectors of 512 bytes.
constexpr qint64 kCylinderBytes = 255 * 63 * 512;

// The drive's alignment offset moves where its physical boundaries fall; cylinders are a count
// of LBAs and ignore it.
qint64 placementPhase(AlignTo mode, const AlignmentGeometry &g, qint64 unit)
{
    const bool followsDrive = mode == AlignTo::Grain || mode == AlignTo::FourKiB;
    return followsDrive ? boundaryPhase(g, unit) : 0;
}

} // namespace

QString alignToName(AlignTo mode)
{
    switch (mode) {
    case AlignTo::Grain:
        return QStringLiteral("mib");
    case AlignTo::FourKiB:
        return QStringLiteral("4k");
    case AlignTo::Cylinder:
        return QStringLiteral("cylinder");
    case AlignTo::None:
        return QStringLiteral("none");
    }
    return QString();
}

bool parseAlignTo(const QString &text, AlignTo *mode)
{
    const QString t = text.toLower();
    if (t == QLatin1String("mib") || t == QLatin1String("grain") || t == QLatin1String("1m"))
        *mode = AlignTo::Grain;
    else if (t == QLatin1String("4k") || t == QLatin1String("4kib"))
        *mode = AlignTo::FourKiB;
    else if (t == QLatin1String("cylinder"))
        *mode = AlignTo::Cylinder;
    else if (t == QLatin1String("none"))
        *mode = AlignTo::None;
    else
        return false;
    return true;
}

qint64 alignmentUnitSectors(AlignTo mode, const AlignmentGeometry &g)
{
    const qint64 ss = g.logicalSectorSize;
    switch (mode) {
    case AlignTo::Grain:
        return std::max<qint64>(1, g.grainBytes / ss);
    case AlignTo::FourKiB:
        return std::max<qint64>(1, std::max<qint64>(4096, g.physicalAssumed) / ss);
    case AlignTo::Cylinder:
        return std::max<qint64>(1, kCylinderBytes / ss);
    case AlignTo::None:
        break;
    }
    return 1;
}

Placement placePartition(const PlacementRequest &r, const AlignmentGeometry &g)
{
    Placement p;
    const qint64 unit = alignmentUnitSectors(r.alignTo, g);
    const qint64 offset = placementPhase(r.alignTo, g, unit);
    qint64 minStart =
        std::max(r.freeStart + std::max<qint64>(0, r.precedingSectors), r.firstUsable);
    if (r.logical)
        minStart = std::max(minStart, r.freeStart + 1); // the EBR takes the sector(s) before
    qint64 start = boundaryAtOrAfter(minStart, unit, offset);
    if (r.alignTo == AlignTo::Cylinder && start == 0)
        start = 63 * 512 / g.logicalSectorSize; // the first track holds the MBR
    const qint64 maxEnd = std::min(r.freeEnd, r.lastUsable);
    if (start > maxEnd) {
        p.error = QCoreApplication::translate(
            "Placement", "The free space is too small to hold an aligned partition.");
        return p;
    }
    qint64 end = r.sizeSectors > 0 ? start + r.sizeSectors - 1 : maxEnd;
    if (end > maxEnd) {
        p.error = QCoreApplication::translate(
                      "Placement", "The partition does not fit: %1 sectors asked for, %2 available "
                                   "after alignment.")
                      .arg(r.sizeSectors)
                      .arg(maxEnd - start + 1);
        return p;
    }
    p.ok = true;
    p.startSector = start;
    p.endSector = placeEnd(start, end, maxEnd, r.alignTo, g, r.endRounding);
    return p;
}

qint64 placeEnd(qint64 start, qint64 end, qint64 maxEnd, AlignTo mode, const AlignmentGeometry &g,
                EndRounding rounding)
{
    const qint64 unit = alignmentUnitSectors(mode, g);
    const qint64 phase = placementPhase(mode, g, unit);
    // End just before a boundary so whatever follows can start on one.
    if (rounding == EndRounding::Down) {
        const qint64 rounded = boundaryAtOrBefore(end + 1, unit, phase) - 1;
        return rounded > start ? rounded : end;
    }
    const qint64 rounded = boundaryAtOrAfter(end + 1, unit, phase) - 1;
    return rounded <= maxEnd ? rounded : end;
}

} // namespace partwise
