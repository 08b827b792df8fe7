#pragma once

// LVM2 physical volumes, read through the LVM tools' own JSON report (`pvs --reportformat
// json`): the start of the first physical extent (pe_start), where every logical volume's data
// is laid out from. pvs only reads block devices, so inside an image the range is attached as a
// read-only loop device, which needs root.

#include "layer/partitionbytes.h"
#include "table/storagelayer.h"

namespace partwise {

StorageLayer readLvmLayer(const PartitionBytes &bytes);

// What every LVM tool Partwise runs is told: udev may not run (live sessions, containers), so
// LVM must not wait for its database.
QString lvmWithoutUdevConfig();

} // namespace partwise
