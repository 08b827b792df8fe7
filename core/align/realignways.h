#pragma once

// The ways to give one misaligned partition room on the grain, found against a plan in progress.
//
// A partition can only land on a boundary if the sectors from that boundary on are free for its
// whole length. When the free space next to it is too small there are three things a person
// could do by hand, and the planner tries each: make the partition smaller (its filesystem gives
// up the few sectors missing), push the partitions after it further up into free space beyond
// them, or push the partitions before it further down. Pushed partitions land on boundaries too,
// so a shift never costs a neighbour its alignment; an extended partition is pushed as one block
// with its logical partitions, by a whole number of grains, so theirs is kept as well.
//
// Every way is priced by the bytes it copies. Partitions are only ever moved whole, so the price
// of a way is the data of every partition it moves: a filesystem's used blocks where they are
// known, the whole partition otherwise, nothing for swap (it is recreated) or a container.

#include "align/realignplan.h"

#include <optional>

namespace partwise::align {

// A partition as the plan has placed it so far.
struct PlannedPartition
{
    PartitionInfo info; // as read from the disk
    qint64 start = 0, end = 0;

    qint64 length() const { return end - start + 1; }
    bool logical() const { return info.kind == PartitionInfo::Kind::Logical; }
    bool container() const { return info.isContainer(); }
};

class PlannedDisk
{
public:
    PlannedDisk(const DiskLayout &layout, const AlignmentGeometry &geometry);

    QList<PlannedPartition> parts; // disk order as read, the container before its logicals

    qint64 unit() const { return m_unit; }
    qint64 phase() const { return m_phase; }
    qint64 up(qint64 sector) const { return boundaryAtOrAfter(sector, m_unit, m_phase); }
    qint64 down(qint64 sector) const { return boundaryAtOrBefore(sector, m_unit, m_phase); }
    bool onBoundary(qint64 sector) const { return up(sector) == sector; }

    // The partitions of i's context (primaries with the container, or the logical partitions)
    // that the plan places after / before it, nearest first.
    QList<int> following(int i) const;
    QList<int> preceding(int i) const;
    // The first and last sector a partition of i's context may use.
    qint64 lowest(int i) const;
    qint64 highest(int i) const;
    // Sectors that must stay free in front of partition i (its EBR).
    qint64 gap(int i) const { return parts[i].logical() ? 1 : 0; }
    int containerIndex() const { return m_container; }

    // Moves partition i to start at `start` (a container takes its logical partitions along).
    void place(int i, qint64 start, qint64 end);

private:
    bool sameContext(int a, int b) const;

    qint64 m_unit = 1, m_phase = 0, m_firstUsable = 0, m_lastUsable = 0;
    int m_container = -1;
};

// The step taking partition `info` from [oldStart, oldEnd] to [newStart, newEnd]: swap is
// recreated rather than copied, and a filesystem left with fewer sectors must shrink first.
PartitionMove moveBetween(const PartitionInfo &info, qint64 oldStart, qint64 oldEnd,
                          qint64 newStart, qint64 newEnd);

// Everything a way needs to know besides the disk.
struct WayContext
{
    qint64 sectorSize = 512;
    std::function<bool(const PartitionInfo &, qint64 newBytes)> canShrink;
    std::function<qint64(const PartitionInfo &)> bytesInUse; // -1: unknown
    qint64 maxShrinkBytes = 16 << 20; // "the few MiB missing", never a real shrink
};

// Every way partition i fits on the grain, each with the partitions' new places filled in.
QList<RealignOption> findWays(const PlannedDisk &disk, int i, const WayContext &context);

// Why partition i has no way, and how much the user would have to free (in words).
QString noWayReason(const PlannedDisk &disk, int i, const WayContext &context);

} // namespace partwise::align
