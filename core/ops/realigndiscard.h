#pragma once

// TRIM for what a realignment leaves behind. Once every move is journaled done, the sectors a
// moved partition held before and no partition holds now are discarded: an SSD gets them back,
// an image gets holes instead of a stale copy of the data. An extended partition counts whole
// as held (its EBRs lie between the logical partitions), so a logical partition's old place is
// kept.
//
// The step runs after the last move and before the journal goes, and reads the table again each
// time: a run killed during it discards the same stretches again on resume. A failed discard
// writes nothing and is only reported; the moved data is in place either way.

#include "device/discardsupport.h"
#include "move/moverequest.h"
#include "ops/copydiscard.h"
#include "ops/writejournal.h"
#include "table/disklayout.h"

#include <QString>

#include <atomic>
#include <vector>

namespace partwise {

// What the plan says it will discard after the moves.
struct RealignDiscard
{
    DiscardWay way = DiscardWay::None;
    qint64 granularity = 0; // bytes a discard is rounded inward to (0: the sector)
    QString why;            // with DiscardWay::None: why not
    quint64 bytes = 0;      // what the plan's moves leave behind
};

// The byte stretches of `oldPlaces` (partition moves' old sectors) that `held` (sector ranges,
// inclusive, of every partition after the moves) does not cover, rounded inward to `align`.
std::vector<move::Extent> leftBehindStretches(const QList<PartitionMove> &oldPlaces,
                                              const QList<PartitionInfo> &held, qint64 sectorSize,
                                              quint64 diskBytes, quint64 align);

// The discard the plan promises (`wanted` false: --no-discard), from the table before the moves.
RealignDiscard planRealignDiscard(const QString &target, const DiskLayout &before,
                                  const QList<PartitionMove> &moves, bool wanted);

// The plan's line, after "discard: ".
QString realignDiscardText(const RealignDiscard &discard);

// Discards what `journal`'s moves left behind, the way the journal says (nothing when it says
// none), with the table read again and the disk claimed (device/exclusiveclaim.h). A line for
// the log says what was discarded, or why not: the outcome never stops the job.
QString discardLeftBehind(const WriteJournal &journal, const std::atomic<bool> *cancel);

} // namespace partwise
