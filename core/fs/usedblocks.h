#pragma once

#include "move/MoveRequest.h"

#include <QString>

#include <optional>
#include <vector>

// Which bytes of a filesystem hold something, so a move can copy only those ("used-blocks
// mode"). For ext2/3/4 the answer comes from the block bitmap read through libext2fs: every
// allocated block (file data, directories, inode tables, the journal, group descriptors and
// bitmaps) is reported, plus the first 64 KiB (boot block and primary superblock).
//
// `device` is a block device or an image file; the filesystem starts `offsetBytes` into it and
// its partition is `sizeBytes` long. `filesystem` is libblkid's TYPE (ext2, ext3, ext4, ...).
//
// Returns the used extents in bytes relative to the filesystem's start, sorted, disjoint and
// inside [0, sizeBytes). Returns std::nullopt when the map is unknown, and the caller must copy
// everything: another filesystem type, a filesystem that cannot be opened, or one whose bitmap
// cannot be trusted (not cleanly unmounted, errors recorded, a journal still to be replayed,
// larger than its partition). `error` (optional) receives the reason for an ext* filesystem
// and stays empty for a type that simply has no map.
std::optional<std::vector<partwise::move::Extent>> usedExtents(const QString &device,
                                                               qint64 offsetBytes, qint64 sizeBytes,
                                                               const QString &filesystem,
                                                               QString *error = nullptr);

// The bytes the extents cover.
quint64 extentBytes(const std::vector<partwise::move::Extent> &extents);

// True when usedExtents() can map this filesystem type (libblkid's TYPE).
bool usedExtentsSupported(const QString &filesystem);
