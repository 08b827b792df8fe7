#pragma once

// Which layers a partition holds, found from what libblkid already saw in it: a LUKS volume
// (crypto_LUKS) is read through libcryptsetup, an LVM physical volume (LVM2_member) through
// pvs. Other partitions have none. Reading never writes and never unlocks anything.
//
// md RAID members are not read yet: this machine's kernel has no md driver, so no member could
// be made to test against, and a reader nobody has seen work is worse than none.

#include "table/disklayout.h"
#include "table/storagelayer.h"

namespace partwise {

// Whether `filesystem` (libblkid's name) is a layer Partwise reads.
bool isReadableLayer(const QString &filesystem);

StorageLayers readPartitionLayers(const DiskLayout &layout, const PartitionInfo &partition);

// Fills every partition's `layers`: what `check` and the window show after readDisk().
void readLayers(DiskLayout *layout);

} // namespace partwise
