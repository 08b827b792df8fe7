#pragma once

// An MBR holds four partition entries: primary partitions and at most one extended partition
// among them; logical partitions live inside the extended one, each behind its own EBR.
// libparted refuses a fifth entry with its own words ("Too many primary partitions"); Partwise
// says why first, and where a partition still fits.

#include "table/disklayout.h"

#include <QString>

namespace partwise {

// Whether `free` (a free region of `layout`) lies inside the extended partition.
bool insideExtended(const DiskLayout &layout, const PartitionInfo &free);

// Why no primary or extended partition can be added to `layout`, or empty (GPT, or an MBR with
// an entry left).
QString noPrimarySlotReason(const DiskLayout &layout);

} // namespace partwise
