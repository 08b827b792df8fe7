#pragma once

// LUKS1 and LUKS2 volumes, read through libcryptsetup: version, UUID and the payload's (data
// segment's) offset. Only the header is read; nothing is unlocked, so no key is needed and no
// device-mapper either. Inside an image the header is read from a scratch copy of the
// partition's first bytes, so this needs no root.

#include "layer/partitionbytes.h"
#include "table/storagelayer.h"

namespace partwise {

StorageLayer readLuksLayer(const PartitionBytes &bytes);

} // namespace partwise
