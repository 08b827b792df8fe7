#pragma once

// TRIM for a copy's target. Before the first byte is copied, every stretch of the target the copy
// will not write (the free space of the new table, the unused blocks inside each copied
// filesystem, a swap partition made anew) is discarded: an SSD gets its erase blocks back as
// systemd-repart gives them, and an image gets holes instead of the old bytes it held. The first
// and last MiB are left out: the copy clears them with written zeros, since old table signatures
// there must read as gone whatever a discard reads back. Stretches shorter than kMinimumDiscard
// are left too (thousands of tiny discards cost more than they give).
//
// Discarding is safe to repeat: it runs while the journal says nothing has been copied yet, so a
// copy killed during it discards again on resume. A failed discard writes nothing and is only
// reported; the copy goes on.

#include "move/blockio.h"
#include "move/moverequest.h"
#include "ops/copyplan.h"

#include <atomic>
#include <functional>
#include <vector>

namespace partwise {

constexpr quint64 kMinimumDiscard = 1 << 20;

// [0, targetSize) less the `written` extents (bytes of the target, any order, may overlap), less
// `keepHead` bytes at the start and `keepTail` at the end, each stretch rounded inward to
// `align` and kept when at least `minimum` long.
std::vector<move::Extent> unwrittenStretches(quint64 targetSize, std::vector<move::Extent> written,
                                             quint64 keepHead, quint64 keepTail, quint64 align,
                                             quint64 minimum = kMinimumDiscard);

// The extents of partition `index` of the plan the copy writes, relative to its data's start.
using CopyExtentsOf = std::function<std::vector<move::Extent>(int index)>;

struct DiscardOutcome
{
    quint64 bytes = 0; // discarded
    QString error;     // why the discard stopped (the copy goes on), empty when it did not
    bool cancelled = false;
};

// Discards what the copy of `plan` onto `target` will not write (the plan's discard way says
// whether to). `dataLength(index)` bounds each partition's written bytes.
DiscardOutcome discardUnwritten(const CopyPlan &plan, move::BlockIo &target,
                                const CopyExtentsOf &extentsOf, quint64 keepHead, quint64 keepTail,
                                const std::atomic<bool> *cancel);

} // namespace partwise
