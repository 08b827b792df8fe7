#pragma once

#include "align/alignmentgeometry.h"
#include "table/disklayout.h"

#include <QList>
#include <QString>

// One partition's way to the grain: where it is, where it goes, and how.
struct PartitionMove
{
    int number = 0;
    PartitionInfo::Kind kind = PartitionInfo::Kind::Primary;
    QString filesystem, label, uuid;
    qint64 oldStart = 0, oldEnd = 0;
    qint64 newStart = 0, newEnd = 0;
    qint64 shrinkSectors = 0;  // the filesystem must first give up this many sectors
    bool recreateSwap = false; // swap holds nothing worth copying: mkswap it anew, same UUID/label

    qint64 oldLength() const { return oldEnd - oldStart + 1; }
    qint64 newLength() const { return newEnd - newStart + 1; }
    qint64 bytesToMove(qint64 sectorSize) const
    {
        return recreateSwap ? 0 : std::min(oldLength(), newLength()) * sectorSize;
    }
};

// A partition that stays where it is, and why.
struct RealignSkip
{
    int number = 0;
    QString reason;
};

struct RealignPlan
{
    AlignmentGeometry geometry;
    QList<PartitionMove> moves; // in the order they must run: none overwrites a partition
                                // that has not moved yet
    QList<RealignSkip> skipped;

    qint64 totalBytes() const;
    bool isEmpty() const { return moves.isEmpty(); }
};

struct RealignRequest
{
    QList<int> partitions;             // empty: every misaligned partition
    bool includeSectorAligned = false; // --all: sector-aligned ones too
};

// Chooses, for each partition asked for, the nearest grain boundary it can move to with its
// data: up into the free space after it when there is room (chains of adjacent partitions
// move last first), down into the space before it otherwise, or up with the filesystem shrunk
// by the few sectors that are missing when its tool can shrink it. Extended partitions are
// containers; logical partitions keep a sector for their EBR and stay inside the container.
RealignPlan planRealignment(const DiskLayout &layout, const AlignmentGeometry &geometry,
                            const RealignRequest &request);

// Whether Partwise can shrink this filesystem with its own tool (resize2fs, ntfsresize).
bool canShrinkFilesystem(const QString &filesystem);
