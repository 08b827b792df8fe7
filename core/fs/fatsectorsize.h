#pragma once

// FAT32 between 512-byte and 4Kn disks. FAT counts its reserved area, its FATs and its clusters
// in the sectors it records; the clusters stay where they are when each of those is a whole
// number of the new sectors (onto 4Kn: reserved sectors and FAT size multiples of 8, clusters of
// at least 4 KiB). Then only the reserved area changes: the boot sector's geometry, and the
// FSInfo sector and backup boot sector, which are addressed in sectors and so move.
//
// Written by hand: libparted's FAT code cannot change a FAT's sector size (its resizer is known
// to break FATs of other than 512-byte sectors, fs/fatresize.h) and dosfstools has no tool for
// it. FAT12/16, whose root directory is counted in sectors too, are not converted.

#include "fs/sectorsizeverdict.h"

#include <QByteArray>
#include <QString>

namespace partwise {

// `bootSector`: the filesystem's first 512 bytes, as on the source.
SectorSizeVerdict judgeFatSectorSize(const QByteArray &bootSector, qint64 sourceSectorSize,
                                     qint64 targetSectorSize);

// Rewrites the reserved area of the FAT32 at byte `offset` of `path` (a partition of
// `partitionBytes` on the target, which the FAT must fit). Everything is read before
// anything is written and the primary boot sector is written last, so a run cut short is done
// again from the unchanged primary; a primary already converted is left as it is.
bool convertFatSectorSize(const QString &path, qint64 offset, qint64 partitionBytes,
                          qint64 sourceSectorSize, qint64 targetSectorSize, QString *error);

} // namespace partwise
