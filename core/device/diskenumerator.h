#pragma once

#include <QStringList>

namespace partwise {

// Paths of every disk on this machine: SATA/NVMe/virtio disks, USB sticks and attached loop
// devices, found in /sys/block (libparted's own probe skips loop devices and, in some VMs, the
// virtio disk too). RAM disks, zram swap and empty devices (unattached loops, empty card
// readers) are left out: nothing to partition there.
QStringList listDisks();

// Whether a block device of that kernel name is left out of the list (RAM disks, zram).
bool isIgnoredDiskName(const QString &name);

} // namespace partwise
