#pragma once

// Which filesystems carry over unchanged between disks of different logical sector sizes (a
// 512-byte disk copied onto a 4Kn one, or back). A filesystem reads and writes in its own
// units, and the kernel reads it on a disk only when those units are at least the disk's
// logical sector: ext2/3/4 and btrfs with blocks (sectors) of at least the larger of the two
// sector sizes, F2FS (always 4 KiB blocks), XFS and exFAT when the sector size they record is at
// least the target's, and swap, made anew. FAT32 and NTFS record a bytes-per-sector, which is
// rewritten where their clusters stay where they are (fs/fatsectorsize.h, fs/ntfssectorsize.h);
// anything unknown is refused.

#include <QByteArray>
#include <QString>

namespace partwise {

struct SectorSizeRule
{
    bool carries = false;
    QString rule; // what applied, for the plan: "ext4 with 4096-byte blocks carries over"
};

// `unitBytes`: what libblkid reports as the filesystem's BLOCK_SIZE (ext/btrfs/F2FS: its block
// or sector size; XFS, exFAT, FAT, NTFS: the sector size it records); 0 when unknown.
// `bootSector`: for vfat and ntfs, the filesystem's first 512 bytes.
SectorSizeRule sectorSizeRule(const QString &filesystem, qint64 unitBytes,
                              const QByteArray &bootSector, qint64 sourceSectorSize,
                              qint64 targetSectorSize);

// Whether `filesystem` is one whose boot sector a copy across sector sizes rewrites.
bool convertsBootSector(const QString &filesystem);

} // namespace partwise
