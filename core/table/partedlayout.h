#pragma once

#include "table/disklayout.h"

typedef struct _PedDisk PedDisk;

namespace partwise {

// Fills a layout's table type, usable range and regions (partitions and free space worth
// showing) from a libparted disk, probing filesystems with libblkid when asked. Shared by the
// reader and by the editor's preview, so both describe a table the same way. `probePath` is
// what libblkid opens (a descriptor's /proc/self/fd name); empty: layout.device.path.
void fillLayoutFromPedDisk(PedDisk *disk, DiskLayout &layout, bool probeFilesystems,
                           const QString &probePath = {});

} // namespace partwise
