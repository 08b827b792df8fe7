// What the used-block map suites (tst_usedmaps_*) share: partclone domain-map text to feed the
// parser, checks on extent lists, and lazily made ext4 images with their layout as dumpe2fs
// reports it (the independent account the ext map is compared with).
#pragma once

#include "move/moverequest.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace usedmaps {

inline constexpr qint64 kKiB = 1024;
inline constexpr qint64 kMiB = 1024 * kKiB;
inline constexpr qint64 kOffset = 63 * 512; // MBR sector 63: the filesystem starts off any block

// The head of a partclone domain map of a `total`-byte filesystem, and one of its runs.
QByteArray header(std::uint64_t total);
QByteArray run(std::uint64_t pos, std::uint64_t size, char status);

// Whether one extent holds all of [offset, offset + length).
bool covered(const std::vector<partwise::move::Extent> &extents, std::uint64_t offset,
             std::uint64_t length);
// Sorted, disjoint, non-empty, inside [0, size): empty if so, else what is wrong.
QString wellFormed(const std::vector<partwise::move::Extent> &extents, std::uint64_t size);
// `extents` with [cut, cut + length) taken out.
std::vector<partwise::move::Extent> without(const std::vector<partwise::move::Extent> &extents,
                                            std::uint64_t cut, std::uint64_t length);
// Whether any extent shares a byte with [offset, offset + length).
bool overlaps(const std::vector<partwise::move::Extent> &extents, std::uint64_t offset,
              std::uint64_t length);

// An ext2/3/4 filesystem's groups as dumpe2fs lists them (block numbers).
struct ExtGroup
{
    qint64 blockBitmap = 0;
    qint64 inodeBitmap = 0;
    qint64 tableFirst = 0;
    qint64 tableLast = 0;
    qint64 unusedInodes = 0;
    bool inodeUninit = false;
    bool blockUninit = false;
    bool checksumBad = false; // dumpe2fs: "csum 0x... (EXPECTED 0x...)"
};

struct ExtLayout
{
    qint64 blockSize = 0;
    qint64 inodesPerGroup = 0;
    qint64 inodeSize = 0;
    qint64 descriptorSize = 32;
    std::vector<ExtGroup> groups;
};

// The ext filesystem at `offset` bytes into `image`, as dumpe2fs reports it.
ExtLayout dumpe2fs(const QString &image, qint64 offset);

// A sparse image of `imageBytes` with one GPT partition from sector 34 to the end, holding an
// ext4 made lazily (as mkfs.ext4 does on large disks) from the files in `tree`. Returns the
// partition's size in bytes, 0 on failure.
qint64 makeLazyExt4(const QString &image, qint64 imageBytes, const QString &tree,
                    const QStringList &features, QString *error);

} // namespace usedmaps
