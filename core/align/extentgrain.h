#pragma once

// An LVM volume group's extent size against the grain. Logical volumes are laid out in whole
// extents from the physical volume's first one, so when the extent size is a whole number of
// grains every logical volume starts on the grain exactly when the first extent does; a smaller
// or uneven extent size leaves some of them off it.

#include "align/alignmentgeometry.h"

namespace partwise {

// Whether extents of `extentBytes` keep the logical volumes on the grain as the first extent is.
bool extentsKeepGrain(qint64 extentBytes, const AlignmentGeometry &geometry);

} // namespace partwise
