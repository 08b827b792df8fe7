#pragma once

// What a realignment means for the layers inside partitions (LUKS, LVM). Moving a partition
// moves its layers' data with it, so a layer misaligned inside its partition stays misaligned
// however well the partition sits, and a layer aligned today may end up misaligned once its
// partition starts on the grain (a LUKS1 payload of 4097 sectors behind sector 63 is on a
// 4 KiB boundary; behind sector 2048 it is not). The plan says so for each such partition,
// and what would fix it, without doing it.

#include "align/realignplan.h"
#include "table/disklayout.h"

#include <QStringList>

namespace partwise {

// `layout` with its layers read (readLayers).
QStringList realignLayerNotes(const DiskLayout &layout, const RealignPlan &plan);

} // namespace partwise
