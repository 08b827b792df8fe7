#pragma once

#include "table/disklayout.h"

namespace partwise {

// Disks other tools made that Partwise reads but never edits: a hybrid ISO, whose partitions
// are windows into one ISO 9660 filesystem. Returns the sentence that refuses a job on its
// partitions (realign, apply, copy), or an empty string when the disk may be edited.
QString foreignDiskRefusal(const DiskLayout &layout);

} // namespace partwise
