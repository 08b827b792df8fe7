#pragma once

// The lock the map and the partition list draw on a partition in use (mounted somewhere, or an
// active swap), and the words for it, as the disk was read: such a partition cannot be
// resized, moved or formatted until it is unmounted (Partition → Unmount).

#include "table/partitioninfo.h"

#include <QIcon>
#include <QPixmap>

namespace MountMark {

// A small padlock, drawn (no icon theme is needed), `size` pixels square.
QPixmap lock(int size, const QColor &color);
QIcon lockIcon();
// "Mounted on /mnt/a, /home/me/b", "Active swap", or empty when not in use.
QString text(const partwise::PartitionInfo &partition);

} // namespace MountMark
