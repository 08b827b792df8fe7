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

// What an LVM tool acting on the volume of one partition is told: that device and no other.
// Where LVM keeps a devices file (use_devicesfile=1) that does not name the partition, LVM
// ignores the volume otherwise, and its partition would be moved or resized without it.
QStringList lvmOnlyDevice(const QString &node);

} // namespace partwise
