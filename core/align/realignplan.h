#pragma once

#include "align/alignmentgeometry.h"
#include "table/disklayout.h"

#include <QList>
#include <QMap>
#include <QString>

#include <functional>
#include <optional>

namespace partwise {

// One step of a realignment: a partition's way from where it is to where it goes. A step of
// kind Extended only rewrites the container's place in the table (it holds no data): a
// container that shifts is first widened to cover both places, its logical partitions move,
// then it is narrowed to its new place.
struct PartitionMove
{
    int number = 0;
    PartitionInfo::Kind kind = PartitionInfo::Kind::Primary;
    QString filesystem, label, uuid;
    qint64 oldStart = 0, oldEnd = 0;
    qint64 newStart = 0, newEnd = 0;
    qint64 shrinkSectors = 0;  // the filesystem must first give up this many sectors
    bool recreateSwap = false; // swap holds nothing worth copying: mkswap it anew, same UUID/label
    bool grow = false;         // afterwards the filesystem grows to fill the partition (Resize)

    qint64 oldLength() const { return oldEnd - oldStart + 1; }
    qint64 newLength() const { return newEnd - newStart + 1; }
    bool tableOnly() const { return kind == PartitionInfo::Kind::Extended; }
    qint64 bytesToMove(qint64 sectorSize) const
    {
        return recreateSwap || tableOnly() ? 0 : std::min(oldLength(), newLength()) * sectorSize;
    }
};

// The ways a misaligned partition can be given room on the grain.
enum class RealignWay {
    MoveUp,         // into free space right after it
    MoveDown,       // into free space right before it
    Shrink,         // its filesystem gives up the few MiB missing, then it moves up
    ShiftFollowing, // the partitions after it shift up into free space further along
    ShiftPreceding, // the partitions before it shift down into free space further back
};

QString realignWayName(RealignWay way); // "move-up", "move-down", "shrink", ...
// The way realignWayName names; false for a name it does not give.
bool realignWayFromName(const QString &name, RealignWay *way);

// One way, priced: every partition it moves (the misaligned one included) and what it costs.
struct RealignOption
{
    RealignWay way = RealignWay::MoveUp;
    QList<PartitionMove> moves; // where each partition would go; no run order
    qint64 bytesToMove = 0;     // the bytes that would be copied (used blocks where known)
    qint64 shrinkBytes = 0;     // what the filesystem gives up (Shrink)

    QString describe() const; // "shift partitions 2, 3 after it up, then move it up; copies 40 MiB"
};

// The ways found for one misaligned partition, cheapest first, and the one the plan took.
struct RealignChoice
{
    int number = 0;
    QList<RealignOption> options;
    int chosen = 0;

    const RealignOption &taken() const { return options[chosen]; }
};

// A partition that stays where it is, and why (with what the user can do about it).
struct RealignSkip
{
    int number = 0;
    QString reason;
    bool misaligned = true; // false: it needs no move (on the grain, a container, BIOS boot)
};

// A GPT BIOS boot partition (libparted's bios_grub flag): GRUB's core.img, no filesystem.
bool isBiosBootPartition(const PartitionInfo &partition);

struct RealignPlan
{
    AlignmentGeometry geometry;
    QList<PartitionMove> moves; // in the order they must run: none overwrites a partition
                                // that has not moved yet
    QList<RealignSkip> skipped;
    QList<RealignChoice> choices; // for each partition realigned, in the order planned
    QMap<int, qint64> bytesInUse; // per partition number, what a move copies (known ones)

    qint64 bytesToCopy(const PartitionMove &move) const; // used blocks where known
    qint64 totalBytes() const;                           // of every move
    bool isEmpty() const { return moves.isEmpty(); }
};

enum class RealignPreference { Cheapest, Shrink, Move };

struct RealignRequest
{
    QList<int> partitions;             // empty: every misaligned partition
    bool includeSectorAligned = false; // --all: sector-aligned ones too
    RealignPreference prefer = RealignPreference::Cheapest;
    QMap<int, RealignWay> ways; // the way a person picked for a partition (the wizard)

    // Whether this session can shrink the partition's filesystem to `newBytes` (its tools live
    // in core/fs; the planner only asks). Unset: nothing shrinks but swap.
    std::function<bool(const PartitionInfo &partition, qint64 newBytes)> canShrink;
    // The bytes a move of this partition would copy (the filesystem's used blocks), or -1
    // when unknown (then the whole partition counts). Unset: every partition counts whole.
    std::function<qint64(const PartitionInfo &partition)> bytesInUse;
};

// A way to take instead, after the filesystem of partition `refused` would not shrink (its tool
// refused before anything was written): the partition whose choice needed that shrink, and the
// cheapest of its other ways that shrinks nothing.
struct NextWay
{
    int number = 0;
    RealignWay way = RealignWay::MoveUp;
};
std::optional<NextWay> nextWayWithoutShrink(const RealignPlan &plan, int refused);

// For each partition asked for (last first), finds every way to put it on the grain against
// the plan so far, prices each in bytes to copy, and takes the cheapest (or the one preferred
// or picked). Partitions that move with a neighbour keep or gain alignment; extended partitions
// move as a whole with their logical partitions; logical partitions keep a sector for their EBR.
// A partition no way fits is skipped with what the user can free to make room.
RealignPlan planRealignment(const DiskLayout &layout, const AlignmentGeometry &geometry,
                            const RealignRequest &request);

} // namespace partwise
