#pragma once

// The order a realignment's moves run in.
//
// Every move copies a partition from its old place to its new one, and the new place may cover
// the old place of another partition that has not moved yet: that one must go first. A chain
// moving up therefore runs last first, one moving down first first. An extended partition that
// shifts is two table-only steps around its logical partitions: first it is widened to cover
// both its old and new place (so every EBR libparted writes while they move lies inside it, and
// the first one, at its start, below the data), then, once they have all moved, narrowed to its
// new place; primaries whose new place lies in the container's old one wait for that.

#include "align/realignplan.h"

namespace partwise::align {

// `moves`: each partition's whole way (old → new), containers included, in any order.
QList<PartitionMove> orderMoves(const QList<PartitionMove> &moves);

} // namespace partwise::align
