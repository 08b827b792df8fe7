#pragma once

#include "fs/mapprogress.h"
#include "move/moverequest.h"

#include <QString>

#include <optional>
#include <vector>

namespace partwise {

// Which bytes of a filesystem hold something, so a move can copy only those ("used-blocks
// mode"). Two sources:
// - ext2/3/4: the block bitmap read through libext2fs: every allocated block (file data,
//   directories, inode tables, the journal, group descriptors and bitmaps), plus the first
//   64 KiB (boot block and primary superblock), less what the group descriptors say was never
//   written (inode tables and bitmaps of uninitialised groups, the unused tail of each inode
//   table), where their checksums verify.
// - FAT16/32 (vfat): the File Allocation Table itself (core/fs/fatmap); what that reader refuses
//   goes to partclone's map, as the next types do.
// - NTFS, FAT16/32 (vfat), exFAT, XFS, btrfs, F2FS and HFS+ (hfsplus): partclone's map of
//   used blocks (`partclone.<fs> --domain`, core/fs/partclonemap), plus the first 64 KiB,
//   btrfs's superblock copies and whatever lies past the end of the filesystem's last block
//   (NTFS's backup boot sector). It needs partclone installed; a filesystem that does not
//   start at byte 0 of a file is read through a loop device (root), its own file through FUSE,
//   or a scratch copy of it. Refused, so copied
//   whole: FAT12 (partclone maps it wrongly), and filesystems with a log or journal to replay.
// Every other type (swap, LUKS, classic HFS, ...) has no map: it is copied whole.
//
// `device` is a block device or an image file; the filesystem starts `offsetBytes` into it and
// its partition is `sizeBytes` long. `filesystem` is libblkid's TYPE (ext4, ntfs, vfat, ...).
//
// Returns the used extents in bytes relative to the filesystem's start, sorted, disjoint and
// inside [0, sizeBytes). Returns std::nullopt when the map is unknown, and the caller must copy
// everything: another filesystem type, a filesystem that cannot be opened, or one whose
// allocation state cannot be trusted (not cleanly unmounted, errors recorded, a journal or log
// still to be replayed, larger than its partition), a missing partclone, a malformed map.
// `error` (optional) receives the reason for a type that has a map source, and stays empty for
// a type that simply has no map. `progress` (optional) hears how far partclone has read a
// large filesystem (from 64 GiB; smaller ones take a moment and report nothing).
std::optional<std::vector<move::Extent>> usedExtents(const QString &device, qint64 offsetBytes,
                                                     qint64 sizeBytes, const QString &filesystem,
                                                     QString *error = nullptr,
                                                     const MapProgress &progress = {});

// The bytes the extents cover.
quint64 extentBytes(const std::vector<move::Extent> &extents);

// True when usedExtents() can map this filesystem type (libblkid's TYPE).
bool usedExtentsSupported(const QString &filesystem);

} // namespace partwise
