#pragma once

#include "device/sectortopology.h"

namespace partwise {

// Reads a block device's sector sizes and I/O hints through libblkid's topology probe (which
// asks the kernel: the same values as /sys/block/X/queue). Returns false when the device cannot
// be probed, with the reason in `error` (which may be null); `topology` is then left untouched.
bool probeBlockDeviceTopology(const QString &devicePath, SectorTopology *topology, QString *error);

// An image file's topology: its logical sector size, nothing reported beyond it.
SectorTopology imageFileTopology(qint64 logicalSectorSize);

} // namespace partwise
