#pragma once

#include <QString>
#include <QStringList>

namespace partwise {

// What the filesystems inside an image's MBR partitions say about its logical sector size. An
// MBR records sectors, not bytes, so the same table reads as 512-byte or 4096-byte sectors; a
// 4Kn disk's image holds its filesystems at 8 times the offsets a 512-byte reading gives.
// libblkid reads the table each way and looks for a filesystem at each partition's start:
// where one is found is a hint, and FAT, NTFS, exFAT and XFS also record their sector size.
struct SectorSizeHints
{
    qint64 bytes = 512;  // the size the hints agree on, or 512 when they do not
    QString doubt;       // why the hints disagree; empty when they agree (or there are none)
    QStringList reasons; // each hint, for messages: "partition 1 (vfat) records 4096-byte sectors"
};

// For an image with an MBR and no GPT.
SectorSizeHints readSectorSizeHints(const QString &imagePath);

} // namespace partwise
