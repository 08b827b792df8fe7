#include "align/realignways.h"

#include "align/partitionplacement.h"
#include "base/multiple.h"

#include <algorithm>

namespace partwise::align {

namespace {

constexpr qint64 kMbrSectorLimit = qint64(1) << 32;
constexpr qint64 kMiB = 1 << 20;

qint64 ceilToMultiple(qint64 value, qint64 unit)
{
    return value <= 0 ? 0 : roundUp(value, unit);
}

bool isSwap(const PartitionInfo &p)
{
    return p.filesystem == QLatin1String("swap");
}

// What moving this partition copies: its data, which a shrink by a few sectors does not make
// smaller, so a shrink is priced like a move of the whole and wins no tie by cutting space.
qint64 bytesOf(const PartitionInfo &info, const WayContext &context)
{
    if (info.isContainer() || isSwap(info))
        return 0;
    const qint64 whole = info.lengthSectors() * context.sectorSize;
    const qint64 used = context.bytesInUse ? context.bytesInUse(info) : -1;
    return used >= 0 ? std::min(used, whole) : whole;
}

// The option that takes the disk from `before` to `after`: every partition whose place changed.
// The moved partition `first` is listed first, its neighbours after it in disk order.
RealignOption optionBetween(RealignWay way, int first, const PlannedDisk &before,
                            const PlannedDisk &after, const WayContext &context)
{
    RealignOption option;
    option.way = way;
    for (int k = 0; k < before.parts.size(); ++k) {
        const PlannedPartition &b = before.parts[k];
        const PlannedPartition &a = after.parts[k];
        if (a.start == b.start && a.end == b.end)
            continue;
        const PartitionMove m = moveBetween(b.info, b.start, b.end, a.start, a.end);
        option.shrinkBytes += m.shrinkSectors * context.sectorSize;
        option.bytesToMove += bytesOf(b.info, context);
        if (k == first)
            option.moves.prepend(m);
        else
            option.moves << m;
    }
    return option;
}

// Where partition i can end without touching the next partition of its context.
qint64 limitAbove(const PlannedDisk &disk, int i)
{
    const QList<int> next = disk.following(i);
    return next.isEmpty() ? disk.highest(i) : disk.parts[next[0]].start - 1 - disk.gap(next[0]);
}

qint64 limitBelow(const PlannedDisk &disk, int i)
{
    const QList<int> prev = disk.preceding(i);
    return prev.isEmpty() ? disk.lowest(i) : disk.parts[prev[0]].end + 1 + disk.gap(i);
}

bool shrinkable(const PartitionInfo &p, qint64 newSectors, const WayContext &context)
{
    if (isBiosBootPartition(p)) // GRUB's core.img may reach its last sector
        return false;
    // Contents no tool recognises (a VeraCrypt volume looks like random bytes) may use their
    // last sector: such a partition moves whole or not at all (ARCHITECTURE.md).
    if (p.filesystem.isEmpty())
        return false;
    return isSwap(p) ||
           (context.canShrink && context.canShrink(p, newSectors * context.sectorSize));
}

// Partition i on the boundary above it, and every partition after it pushed up just far enough
// (each onto a boundary of its own) that none overlaps. `overflow` receives how many sectors
// the last one would stick out past the end of the usable space when it does not fit.
std::optional<PlannedDisk> shiftFollowing(const PlannedDisk &disk, int i, qint64 *overflow,
                                          const WayContext *context = nullptr)
{
    PlannedDisk after = disk;
    const qint64 up = disk.up(disk.parts[i].start);
    after.place(i, up, up + disk.parts[i].length() - 1);
    qint64 end = after.parts[i].end;
    for (int j : disk.following(i)) {
        const PlannedPartition &q = after.parts[j];
        const qint64 need = end + 1 + after.gap(j);
        if (q.start >= need)
            return after;
        if (q.container()) {
            const qint64 delta = ceilToMultiple(need - q.start, disk.unit());
            after.place(j, q.start + delta, q.end + delta);
        } else {
            const qint64 start = after.up(need);
            after.place(j, start, start + q.length() - 1);
        }
        end = after.parts[j].end;
    }
    *overflow = end - after.highest(i);
    if (*overflow <= 0)
        return after;
    // The last one shifted may give up what sticks out, at its end (see the essay at the top).
    const QList<int> next = disk.following(i);
    if (!context || next.isEmpty())
        return std::nullopt;
    const PlannedPartition &last = after.parts[next.last()];
    const qint64 length = last.length() - *overflow;
    if (last.container() || last.info.filesystem.isEmpty() ||
        *overflow * context->sectorSize > context->maxShrinkBytes ||
        !shrinkable(last.info, length, *context))
        return std::nullopt;
    after.place(next.last(), last.start, last.start + length - 1);
    return after;
}

// The mirror image: partition i on the boundary below it, the ones before it pushed down.
std::optional<PlannedDisk> shiftPreceding(const PlannedDisk &disk, int i)
{
    PlannedDisk after = disk;
    const qint64 down = disk.down(disk.parts[i].start);
    after.place(i, down, down + disk.parts[i].length() - 1);
    int next = i;
    for (int j : disk.preceding(i)) {
        const PlannedPartition &r = after.parts[j];
        const qint64 limit = after.parts[next].start - 1 - after.gap(next);
        if (r.end <= limit)
            return after;
        if (r.container()) {
            const qint64 delta = ceilToMultiple(r.end - limit, disk.unit());
            after.place(j, r.start - delta, r.end - delta);
        } else {
            const qint64 start = after.down(limit - r.length() + 1);
            after.place(j, start, start + r.length() - 1);
        }
        next = j;
    }
    if (after.parts[next].start < after.lowest(next))
        return std::nullopt;
    return after;
}

QString partitionName(const PlannedPartition &p)
{
    return p.info.filesystem.isEmpty()
               ? QStringLiteral("partition %1").arg(p.info.number)
               : QStringLiteral("partition %1 (%2)").arg(p.info.number).arg(p.info.filesystem);
}

QString mib(qint64 sectors, qint64 sectorSize)
{
    return QString::number((sectors * sectorSize + kMiB - 1) / kMiB);
}

} // namespace

PartitionMove moveBetween(const PartitionInfo &info, qint64 oldStart, qint64 oldEnd,
                          qint64 newStart, qint64 newEnd)
{
    PartitionMove m;
    m.number = info.number;
    m.kind = info.kind;
    m.filesystem = info.filesystem;
    m.label = info.label;
    m.uuid = info.uuid;
    m.oldStart = oldStart;
    m.oldEnd = oldEnd;
    m.newStart = newStart;
    m.newEnd = newEnd;
    m.recreateSwap = isSwap(info);
    if (!info.isContainer() && !m.recreateSwap && m.newLength() < m.oldLength())
        m.shrinkSectors = m.oldLength() - m.newLength();
    return m;
}

PlannedDisk::PlannedDisk(const DiskLayout &layout, const AlignmentGeometry &geometry)
{
    m_unit = alignmentUnitSectors(AlignTo::Grain, geometry);
    m_phase = boundaryPhase(geometry, m_unit);
    m_firstUsable = layout.firstUsableSector;
    m_lastUsable = layout.lastUsableSector;
    if (layout.tableType == QLatin1String("msdos"))
        m_lastUsable = std::min(m_lastUsable, kMbrSectorLimit - 1);
    for (const PartitionInfo &r : layout.regions) {
        if (r.isFree())
            continue;
        if (r.isContainer())
            m_container = parts.size();
        parts << PlannedPartition{r, r.startSector, r.endSector};
    }
}

bool PlannedDisk::sameContext(int a, int b) const
{
    return parts[a].logical() == parts[b].logical();
}

QList<int> PlannedDisk::following(int i) const
{
    QList<int> out;
    for (int j = 0; j < parts.size(); ++j)
        if (j != i && sameContext(i, j) && parts[j].start > parts[i].start)
            out << j;
    std::sort(out.begin(), out.end(),
              [this](int a, int b) { return parts[a].start < parts[b].start; });
    return out;
}

QList<int> PlannedDisk::preceding(int i) const
{
    QList<int> out;
    for (int j = 0; j < parts.size(); ++j)
        if (j != i && sameContext(i, j) && parts[j].start < parts[i].start)
            out << j;
    std::sort(out.begin(), out.end(),
              [this](int a, int b) { return parts[a].start > parts[b].start; });
    return out;
}

qint64 PlannedDisk::lowest(int i) const
{
    return parts[i].logical() && m_container >= 0 ? parts[m_container].start + 1 : m_firstUsable;
}

qint64 PlannedDisk::highest(int i) const
{
    return parts[i].logical() && m_container >= 0 ? parts[m_container].end : m_lastUsable;
}

void PlannedDisk::place(int i, qint64 start, qint64 end)
{
    if (parts[i].container()) {
        const qint64 delta = start - parts[i].start;
        for (PlannedPartition &p : parts)
            if (p.logical()) {
                p.start += delta;
                p.end += delta;
            }
    }
    parts[i].start = start;
    parts[i].end = end;
}

QList<RealignOption> findWays(const PlannedDisk &disk, int i, const WayContext &context)
{
    QList<RealignOption> ways;
    const PlannedPartition &p = disk.parts[i];
    const qint64 up = disk.up(p.start);
    const qint64 down = disk.down(p.start);
    const qint64 above = limitAbove(disk, i);
    auto single = [&](RealignWay way, qint64 start, qint64 end) {
        PlannedDisk after = disk;
        after.place(i, start, end);
        ways << optionBetween(way, i, disk, after, context);
    };

    const bool upFits = up + p.length() - 1 <= above;
    if (upFits)
        single(RealignWay::MoveUp, up, up + p.length() - 1);
    const bool downFits = down < p.start && down >= limitBelow(disk, i);
    if (downFits)
        single(RealignWay::MoveDown, down, down + p.length() - 1);
    if (upFits)
        return ways;

    const qint64 missing = up + p.length() - 1 - above;
    if (above > up && shrinkable(p.info, above - up + 1, context) &&
        missing * context.sectorSize <= context.maxShrinkBytes)
        single(RealignWay::Shrink, up, above);
    qint64 overflow = 0;
    if (!disk.following(i).isEmpty())
        if (const auto after = shiftFollowing(disk, i, &overflow, &context))
            ways << optionBetween(RealignWay::ShiftFollowing, i, disk, *after, context);
    if (!downFits && down < p.start && !disk.preceding(i).isEmpty())
        if (const auto after = shiftPreceding(disk, i))
            ways << optionBetween(RealignWay::ShiftPreceding, i, disk, *after, context);
    return ways;
}

QString noWayReason(const PlannedDisk &disk, int i, const WayContext &context)
{
    const PlannedPartition &p = disk.parts[i];
    const qint64 up = disk.up(p.start);
    qint64 short_ = up + p.length() - 1 - limitAbove(disk, i);
    const QList<int> next = disk.following(i);
    if (!next.isEmpty()) {
        qint64 overflow = 0;
        shiftFollowing(disk, i, &overflow);
        short_ = std::max<qint64>(overflow, 1);
    }
    const QString name = partitionName(p);
    // Only the filesystems Partwise cannot shrink are said to be; a shrinkable one simply
    // misses more than a few MiB.
    const QString cannotShrink =
        p.info.filesystem.isEmpty()
            ? QStringLiteral(", and it cannot be shrunk: no filesystem Partwise knows was found "
                             "in it, so its data may reach its last sector")
        : shrinkable(p.info, p.length() - 1, context)
            ? QString()
            : QStringLiteral(" and %1 filesystems cannot be shrunk")
                  .arg(p.info.filesystem == QLatin1String("xfs") ? QStringLiteral("XFS")
                                                                 : p.info.filesystem);
    const QString where =
        next.isEmpty() ? QStringLiteral("after it")
                       : QStringLiteral("after it or after %1 (shrink or delete a partition there)")
                             .arg(partitionName(disk.parts[next.last()]));
    return QStringLiteral("%1 cannot reach the grain: there is not enough free space next to it "
                          "or beyond its neighbours%2. Free at least %3 MiB %4 and run realign "
                          "again, or back it up, recreate it aligned and restore.")
        .arg(name, cannotShrink, mib(short_, context.sectorSize), where);
}

} // namespace partwise::align
