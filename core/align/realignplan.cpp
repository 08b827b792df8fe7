#include "align/realignplan.h"

#include "align/alignmentverdict.h"
#include "align/realignorder.h"
#include "align/realignways.h"

#include <algorithm>

namespace partwise {

using align::PlannedDisk;
using align::WayContext;

namespace {

constexpr qint64 kMiB = 1 << 20;

QString mibText(qint64 bytes)
{
    return bytes < 10 * kMiB
               ? QString::number(double(bytes) / kMiB, 'f', 1) + QStringLiteral(" MiB")
               : QString::number((bytes + kMiB / 2) / kMiB) + QStringLiteral(" MiB");
}

// Cheapest first: fewest bytes copied, then no filesystem touched, then fewest partitions moved.
bool cheaper(const RealignOption &a, const RealignOption &b)
{
    if (a.bytesToMove != b.bytesToMove)
        return a.bytesToMove < b.bytesToMove;
    if ((a.shrinkBytes > 0) != (b.shrinkBytes > 0))
        return a.shrinkBytes == 0;
    return a.moves.size() < b.moves.size();
}

int pick(const QList<RealignOption> &options, int number, const RealignRequest &request)
{
    auto first = [&](auto accept) {
        for (int k = 0; k < options.size(); ++k)
            if (accept(options[k]))
                return k;
        return -1;
    };
    int k = -1;
    if (request.ways.contains(number))
        k = first([&](const RealignOption &o) { return o.way == request.ways.value(number); });
    else if (request.prefer == RealignPreference::Shrink)
        k = first([](const RealignOption &o) { return o.way == RealignWay::Shrink; });
    else if (request.prefer == RealignPreference::Move) // no filesystem shrinks, if it can be
        k = first([](const RealignOption &o) { return o.shrinkBytes == 0; });
    return k < 0 ? 0 : k;
}

int indexOf(const PlannedDisk &disk, int number)
{
    for (int k = 0; k < disk.parts.size(); ++k)
        if (disk.parts[k].info.number == number)
            return k;
    return -1;
}

// Each partition's whole way, from where it was read to where the plan put it.
QList<PartitionMove> wholeMoves(const PlannedDisk &disk)
{
    QList<PartitionMove> out;
    for (const auto &p : disk.parts)
        if (p.start != p.info.startSector || p.end != p.info.endSector)
            out << align::moveBetween(p.info, p.info.startSector, p.info.endSector, p.start, p.end);
    return out;
}

} // namespace

bool isBiosBootPartition(const PartitionInfo &p)
{
    return p.flags.contains(QLatin1String("bios_grub"));
}

QString realignWayName(RealignWay way)
{
    switch (way) {
    case RealignWay::MoveUp:
        return QStringLiteral("move-up");
    case RealignWay::MoveDown:
        return QStringLiteral("move-down");
    case RealignWay::Shrink:
        return QStringLiteral("shrink");
    case RealignWay::ShiftFollowing:
        return QStringLiteral("shift-following");
    case RealignWay::ShiftPreceding:
        return QStringLiteral("shift-preceding");
    }
    return QString();
}

bool realignWayFromName(const QString &name, RealignWay *way)
{
    for (const RealignWay w : {RealignWay::MoveUp, RealignWay::MoveDown, RealignWay::Shrink,
                               RealignWay::ShiftFollowing, RealignWay::ShiftPreceding})
        if (realignWayName(w) == name) {
            *way = w;
            return true;
        }
    return false;
}

QString RealignOption::describe() const
{
    // The first move is the misaligned partition's own (options list it first).
    QStringList neighbours;
    QString neighbourShrink; // a neighbour that gives up a few MiB at its end to make room
    for (int k = 1; k < moves.size(); ++k) {
        if (moves[k].tableOnly())
            continue;
        neighbours << QString::number(moves[k].number);
        if (moves[k].shrinkSectors > 0)
            neighbourShrink = QStringLiteral(" (partition %1's filesystem shrunk by %2)")
                                  .arg(moves[k].number)
                                  .arg(mibText(shrinkBytes));
    }
    QString what;
    switch (way) {
    case RealignWay::MoveUp:
        what = QStringLiteral("move it up into the free space after it");
        break;
    case RealignWay::MoveDown:
        what = QStringLiteral("move it down into the free space before it");
        break;
    case RealignWay::Shrink:
        what = shrinkBytes > 0 ? QStringLiteral("shrink its filesystem by %1, then move it up")
                                     .arg(mibText(shrinkBytes))
                               : QStringLiteral("move it up into the unused room at its end");
        break;
    case RealignWay::ShiftFollowing:
        what = QStringLiteral("shift partition%1 %2 after it up%3, then move it up")
                   .arg(neighbours.size() == 1 ? QString() : QStringLiteral("s"),
                        neighbours.join(QStringLiteral(", ")), neighbourShrink);
        break;
    case RealignWay::ShiftPreceding:
        what = QStringLiteral("shift partition%1 %2 before it down, then move it down")
                   .arg(neighbours.size() == 1 ? QString() : QStringLiteral("s"),
                        neighbours.join(QStringLiteral(", ")));
        break;
    }
    return QStringLiteral("%1; copies %2").arg(what, mibText(bytesToMove));
}

std::optional<NextWay> nextWayWithoutShrink(const RealignPlan &plan, int refused)
{
    auto shrinks = [](const RealignOption &o, int number) {
        return std::any_of(o.moves.cbegin(), o.moves.cend(), [number](const PartitionMove &m) {
            return m.shrinkSectors > 0 && (number == 0 || m.number == number);
        });
    };
    for (const RealignChoice &c : plan.choices) {
        if (!shrinks(c.taken(), refused))
            continue;
        for (const RealignOption &o : c.options) // cheapest first
            if (!shrinks(o, 0))
                return NextWay{c.number, o.way};
        return std::nullopt;
    }
    return std::nullopt;
}

qint64 RealignPlan::bytesToCopy(const PartitionMove &move) const
{
    const qint64 whole = move.bytesToMove(geometry.logicalSectorSize);
    const qint64 used = bytesInUse.value(move.number, -1);
    return used >= 0 ? std::min(whole, used) : whole;
}

qint64 RealignPlan::totalBytes() const
{
    qint64 sum = 0;
    for (const PartitionMove &m : moves)
        sum += bytesToCopy(m);
    return sum;
}

RealignPlan planRealignment(const DiskLayout &layout, const AlignmentGeometry &g,
                            const RealignRequest &request)
{
    RealignPlan plan;
    plan.geometry = g;
    PlannedDisk disk(layout, g);
    WayContext context;
    context.sectorSize = g.logicalSectorSize;
    context.canShrink = request.canShrink;
    // Asking for a filesystem's used blocks reads its bitmaps: once per partition is enough.
    context.bytesInUse = [&](const PartitionInfo &p) {
        if (!plan.bytesInUse.contains(p.number))
            plan.bytesInUse[p.number] = request.bytesInUse ? request.bytesInUse(p) : -1;
        return plan.bytesInUse.value(p.number);
    };

    auto wanted = [&](const PartitionInfo &p) {
        if (!request.partitions.isEmpty())
            return request.partitions.contains(p.number);
        if (p.isContainer())
            return false;
        const AlignmentStatus s = judgeStart(p.startSector, g).status;
        return s == AlignmentStatus::Misaligned ||
               (request.includeSectorAligned && s == AlignmentStatus::SectorAligned);
    };

    for (int i = disk.parts.size() - 1; i >= 0; --i) {
        const auto &p = disk.parts[i];
        if (!wanted(p.info))
            continue;
        // A BIOS boot partition holds GRUB's core.img, no filesystem: alignment gains it
        // nothing, and boot.img records where it is. It moves only when asked for by number
        // (then with its pointers, core/boot) or when a neighbour's way needs its room.
        if (request.partitions.isEmpty() && isBiosBootPartition(p.info)) {
            plan.skipped << RealignSkip{p.info.number,
                                        QStringLiteral("a BIOS boot partition holds GRUB's core "
                                                       "image, not a filesystem; alignment gains "
                                                       "it nothing, so it stays where it is"),
                                        false};
            continue;
        }
        if (p.container()) {
            plan.skipped << RealignSkip{p.info.number,
                                        QStringLiteral("an extended partition is a container; its "
                                                       "logical partitions are realigned instead"),
                                        false};
            continue;
        }
        if (disk.onBoundary(p.start)) {
            if (p.start == p.info.startSector) // else it moves with a neighbour, onto the grain
                plan.skipped << RealignSkip{p.info.number,
                                            QStringLiteral("already starts on the grain"), false};
            continue;
        }
        QList<RealignOption> options = align::findWays(disk, i, context);
        if (options.isEmpty()) {
            plan.skipped << RealignSkip{p.info.number, align::noWayReason(disk, i, context)};
            continue;
        }
        std::stable_sort(options.begin(), options.end(), cheaper);
        RealignChoice choice{p.info.number, options, pick(options, p.info.number, request)};
        for (const PartitionMove &m : choice.taken().moves) {
            auto &q = disk.parts[indexOf(disk, m.number)];
            q.start = m.newStart; // the option lists a container's logical partitions too
            q.end = m.newEnd;
        }
        plan.choices << choice;
    }
    plan.moves = align::orderMoves(wholeMoves(disk));
    return plan;
}

} // namespace partwise
