#pragma once

#include "move/moverequest.h"

#include <QString>

#include <optional>
#include <vector>

namespace partwise {

// The clusters a FAT16 or FAT32 filesystem uses, read from its own File Allocation Table.
//
// Why by hand: the FAT is the allocation map itself (one entry per cluster, zero when free), but
// no library exports it: libparted's FAT code reads it only inside its resizer, dosfstools and
// mtools are programs, and partclone.fat (the map used before) walks every cluster through its
// own loop and took 2.7 s for a 2 GiB FAT32. Reading the boot sector and the FATs once costs a
// few milliseconds per GiB.
//
// Why strict: a map that leaves out one used cluster loses data silently, so anything this
// reader does not fully understand is refused and the caller falls back (to partclone's map or
// a whole copy): a boot sector whose fields are out of range or contradict each other, FAT12
// (fewer than 4085 clusters), a FAT type by cluster count that differs from the type its BPB
// layout says (Linux and Windows would disagree on it), FAT32 with mirroring switched off or a
// version other than 0, a filesystem marked dirty (in the boot sector or in FAT entry 1), FAT
// copies that differ, a FAT entry that is reserved or points past the last cluster, and a
// filesystem larger than its partition.
//
// Returned, in bytes from the filesystem's start, sorted and disjoint: the first 64 KiB, the
// reserved sectors, every FAT copy and FAT16's root directory, every cluster whose entry is not
// zero (bad clusters included), and everything past the last cluster up to `sizeBytes`. Past
// kMaxPartcloneExtents extents the smallest gaps are filled in, as for partclone's maps.
std::optional<std::vector<move::Extent>> fatUsedExtents(const QString &device, qint64 offsetBytes,
                                                        qint64 sizeBytes, QString *error);

} // namespace partwise
