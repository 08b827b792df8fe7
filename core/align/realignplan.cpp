#include "align/realignplan.h"

#include "align/alignmentverdict.h"
#include "align/partitionplacement.h"

#include <algorithm>

namespace {

// The most sectors Partwise shrinks a filesystem by on its own: "the few sectors needed".
constexpr qint64 kMaxShrinkBytes = 16 << 20;
constexpr qint64 kMbrSectorLimit = qint64(1) << 32;

qint64 roundUp(qint64 v, qint64 unit, qint64 phase)
{
    const qint64 k = v - phase;
    return (k <= 0 ? 0 : (k + unit - 1) / unit * unit) + phase;
}

qint64 roundDown(qint64 v, qint64 unit, qint64 phase)
{
    const qint64 k = v - phase;
    return (k <= 0 ? 0 : k / unit * unit) + phase;
}

struct Neighbours
{
    qint64 lowest = 0;  // the first sector the partition may start at
    qint64 highest = 0; // the last sector it may end at
};

bool sameContext(const PartitionInfo &a, const PartitionInfo &b)
{
    const bool aInside = a.kind == PartitionInfo::Kind::Logical || (a.isFree() && a.insideExtended);
    const bool bInside = b.kind == PartitionInfo::Kind::Logical || (b.isFree() && b.insideExtended);
    return aInside == bInside;
}

} // namespace

qint64 RealignPlan::totalBytes() const
{
    qint64 sum = 0;
    for (const PartitionMove &m : moves)
        sum += m.bytesToMove(geometry.logicalSectorSize);
    return sum;
}

bool canShrinkFilesystem(const QString &fs)
{
    return fs == QLatin1String("ext2") || fs == QLatin1String("ext3") ||
           fs == QLatin1String("ext4") || fs == QLatin1String("ntfs");
}

RealignPlan planRealignment(const DiskLayout &layout, const AlignmentGeometry &g,
                            const RealignRequest &request)
{
    RealignPlan plan;
    plan.geometry = g;
    const qint64 unit = alignmentUnitSectors(AlignTo::Grain, g);
    const qint64 phase = g.alignmentOffset % g.logicalSectorSize == 0
                             ? (g.alignmentOffset / g.logicalSectorSize) % unit
                             : 0;

    // Partitions only, in disk order; each gets a planned start/end (initially its own).
    QList<PartitionInfo> parts;
    const PartitionInfo *extended = nullptr;
    for (const PartitionInfo &r : layout.regions) {
        if (r.isFree())
            continue;
        parts << r;
    }
    for (const PartitionInfo &p : parts)
        if (p.isContainer())
            extended = &p;
    QList<qint64> plannedStart, plannedEnd;
    for (const PartitionInfo &p : parts) {
        plannedStart << p.startSector;
        plannedEnd << p.endSector;
    }

    auto wanted = [&](const PartitionInfo &p) {
        if (p.isContainer())
            return false;
        if (!request.partitions.isEmpty())
            return request.partitions.contains(p.number);
        const AlignmentStatus s = judgeStart(p.startSector, g).status;
        return s == AlignmentStatus::Misaligned ||
               (request.includeSectorAligned && s == AlignmentStatus::SectorAligned);
    };
    auto neighbours = [&](int i) {
        const PartitionInfo &p = parts[i];
        const bool logical = p.kind == PartitionInfo::Kind::Logical;
        Neighbours n;
        n.lowest = logical && extended ? extended->startSector + 1 : layout.firstUsableSector;
        n.highest = logical && extended ? extended->endSector : layout.lastUsableSector;
        if (layout.tableType == QLatin1String("msdos"))
            n.highest = std::min(n.highest, kMbrSectorLimit - 1);
        // Logical partitions keep one sector before them for their EBR.
        const qint64 ebr = logical ? 1 : 0;
        for (int j = 0; j < parts.size(); ++j) {
            if (j == i || !sameContext(parts[j], p))
                continue;
            // Where the other partition will be: partitions after this one are planned
            // already and those before it not yet (planned = where they are). Its old place
            // does not count: the run order below moves it out of the way first, which is
            // what lets a chain of adjacent partitions move up together into the free space
            // after the last one.
            const qint64 lo = parts[j].isContainer() ? parts[j].startSector : plannedStart[j];
            const qint64 hi = parts[j].isContainer() ? parts[j].endSector : plannedEnd[j];
            if (parts[j].startSector > p.startSector)
                n.highest = std::min(n.highest, lo - 1 - ebr);
            else
                n.lowest = std::max(n.lowest, hi + 1 + ebr);
        }
        return n;
    };

    auto baseMove = [](const PartitionInfo &p) {
        PartitionMove m;
        m.number = p.number;
        m.kind = p.kind;
        m.filesystem = p.filesystem;
        m.label = p.label;
        m.uuid = p.uuid;
        m.oldStart = p.startSector;
        m.oldEnd = p.endSector;
        m.recreateSwap = p.filesystem == QLatin1String("swap");
        return m;
    };

    QList<PartitionMove> decided;
    // Partitions without room in the first pass, in disk order, with the reason they stay.
    QList<QPair<int, QString>> deferred;
    for (int i = parts.size() - 1; i >= 0; --i) {
        const PartitionInfo &p = parts[i];
        if (!wanted(p))
            continue;
        if (p.isContainer()) {
            plan.skipped << RealignSkip{p.number,
                                        QStringLiteral("an extended partition is a container; its "
                                                       "logical partitions are realigned instead")};
            continue;
        }
        const qint64 len = p.lengthSectors();
        const qint64 up = roundUp(p.startSector, unit, phase);
        if (up == p.startSector) {
            plan.skipped << RealignSkip{p.number, QStringLiteral("already starts on the grain")};
            continue;
        }
        const Neighbours n = neighbours(i);
        PartitionMove m = baseMove(p);
        const qint64 down = roundDown(p.startSector, unit, phase);
        if (up + len - 1 <= n.highest) {
            m.newStart = up;
            m.newEnd = up + len - 1;
        } else if (down >= n.lowest && down < p.startSector) {
            m.newStart = down;
            m.newEnd = down + len - 1;
        } else {
            const qint64 room = n.highest - up + 1;
            const qint64 missing = len - room;
            if (room <= 0 || missing * g.logicalSectorSize > kMaxShrinkBytes) {
                deferred.prepend(
                    {i, QStringLiteral("there is no free space next to it to move into; free at "
                                       "least %1 sectors after it (shrink or move the next "
                                       "partition) and try again")
                            .arg(missing > 0 ? missing : unit)});
                continue;
            }
            if (!m.recreateSwap && !canShrinkFilesystem(p.filesystem)) {
                deferred.prepend(
                    {i,
                     p.filesystem == QLatin1String("xfs")
                         ? QStringLiteral("it needs %1 more sectors than the free space holds and "
                                          "XFS cannot shrink; free space after it, or back it up, "
                                          "recreate it aligned and restore")
                               .arg(missing)
                         : QStringLiteral(
                               "it needs %1 more sectors than the free space holds and Partwise "
                               "cannot shrink %2 filesystems; free space after it first")
                               .arg(missing)
                               .arg(p.filesystem.isEmpty() ? QStringLiteral("unknown")
                                                           : p.filesystem)});
                continue;
            }
            m.newStart = up;
            m.newEnd = n.highest;
            m.shrinkSectors = m.recreateSwap ? 0 : missing;
        }
        plannedStart[i] = m.newStart;
        plannedEnd[i] = m.newEnd;
        decided << m;
    }

    // A chain of adjacent partitions with free space only before it moves down, first first:
    // the pass above planned each one while the one before it still sat in the way. Now that
    // those are planned, a partition stuck above may follow them down.
    for (const auto &[i, reason] : deferred) {
        const PartitionInfo &p = parts[i];
        const Neighbours n = neighbours(i);
        const qint64 down = roundDown(p.startSector, unit, phase);
        if (down < n.lowest || down >= p.startSector) {
            plan.skipped << RealignSkip{p.number, reason};
            continue;
        }
        PartitionMove m = baseMove(p);
        m.newStart = down;
        m.newEnd = down + p.lengthSectors() - 1;
        plannedStart[i] = m.newStart;
        plannedEnd[i] = m.newEnd;
        decided << m;
    }

    // Run order: a move may go once its destination no longer covers a partition still
    // waiting to move (chains moving up go last first, moving down first first).
    while (!decided.isEmpty()) {
        int ready = -1;
        for (int a = 0; a < decided.size() && ready < 0; ++a) {
            bool clear = true;
            for (int b = 0; b < decided.size() && clear; ++b)
                clear = a == b || decided[a].newEnd < decided[b].oldStart ||
                        decided[a].newStart > decided[b].oldEnd;
            if (clear)
                ready = a;
        }
        if (ready < 0)
            ready = 0; // cannot happen for a consistent plan; keep disk order rather than loop
        plan.moves << decided.takeAt(ready);
    }
    return plan;
}
