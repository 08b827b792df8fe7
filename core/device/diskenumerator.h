#pragma once

#include <QStringList>

// Paths of every disk on this machine that libparted can see: SATA/NVMe/virtio disks, USB
// sticks and attached loop devices. RAM disks and zram swap are left out: nothing to align there.
QStringList listDisks();
