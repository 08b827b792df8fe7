#pragma once

// NTFS between 512-byte and 4Kn disks. NTFS records its bytes per sector in the boot sector and
// counts the volume's size and its clusters' size in those sectors; everything else (the MFT's
// place, the MFT record and index block sizes) is in clusters or bytes. So a volume whose
// clusters are whole sectors of the target (at least 4 KiB onto 4Kn) keeps every cluster where
// it is, and only the boot sector changes: bytes per sector, sectors per cluster, total sectors,
// and its backup, which belongs in the partition's last sector of the new size.

#include "fs/sectorsizeverdict.h"

#include <QByteArray>
#include <QString>

namespace partwise {

// `bootSector`: the volume's first 512 bytes, as on the source.
SectorSizeVerdict judgeNtfsSectorSize(const QByteArray &bootSector, qint64 sourceSectorSize,
                                      qint64 targetSectorSize);

// Rewrites the boot sector of the NTFS at byte `offset` of `path` (a partition of
// `partitionBytes` on the target) from `sourceSectorSize` to `targetSectorSize`. The backups are
// written before the primary, so a run cut short is done again from the unchanged primary; a
// primary already converted is left as it is.
bool convertNtfsSectorSize(const QString &path, qint64 offset, qint64 partitionBytes,
                           qint64 sourceSectorSize, qint64 targetSectorSize, QString *error);

} // namespace partwise
