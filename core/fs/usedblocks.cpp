#include "usedblocks.h"

#include "fs/fatmap.h"
#include "fs/partclonemap.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <ext2fs/ext2fs.h>

namespace partwise {

using move::Extent;

namespace {

// The boot block and the primary superblock, whatever the block size: on a filesystem with
// 1 KiB blocks block 0 lies before the first block the bitmap describes.
constexpr qint64 kAlwaysCopied = 64 * 1024;

QString ext2Error(errcode_t code)
{
    // Without the table, error_message() names libext2fs's errors only by number.
    static const bool registered = [] {
        initialize_ext2_error_table();
        return true;
    }();
    Q_UNUSED(registered);
    return QString::fromLocal8Bit(error_message(code));
}

struct FilesystemCloser
{
    ext2_filsys fs = nullptr;
    ~FilesystemCloser()
    {
        if (fs)
            ext2fs_close_free(&fs);
    }
};

void append(std::vector<Extent> &extents, std::uint64_t offset, std::uint64_t end)
{
    if (end <= offset)
        return;
    if (!extents.empty() && offset <= extents.back().offset + extents.back().length) {
        Extent &last = extents.back();
        last.length = std::max(last.offset + last.length, end) - last.offset;
        return;
    }
    extents.push_back({offset, end - offset});
}

// Takes out of the block map what the group descriptors say holds nothing, as the kernel and
// e2fsprogs read them: with the flag INODE_UNINIT a group's inode bitmap and inode table are
// never read (the bitmap counts as zeros, the table as unused); otherwise the inodes past
// inodes_per_group - bg_itable_unused were never handed out and their part of the table is never
// read; with BLOCK_UNINIT the group's block bitmap is computed, not read. mkfs.ext4 leaves all of
// these unwritten with lazy_itable_init, so on a large, mostly empty filesystem they are most of
// what the bitmap marks. The flags mean this only where the descriptors carry checksums, and a
// descriptor is believed only when its checksum verifies (the kernel calls the group corrupt
// otherwise, and e2fsck then reads the whole table); the used part of the table must also hold
// every inode the inode bitmap marks in use. Anything else keeps its blocks in the map.
// Not with bigalloc: its bitmap counts clusters, and a partly unused cluster is still used.
void unmarkUnusedGroupBlocks(ext2_filsys fs)
{
    if (!ext2fs_has_group_desc_csum(fs) || ext2fs_has_feature_bigalloc(fs->super))
        return;
    const std::uint32_t inodesPerGroup = fs->super->s_inodes_per_group;
    const std::uint32_t inodesPerBlock = fs->blocksize / EXT2_INODE_SIZE(fs->super);
    const blk64_t blocks = ext2fs_blocks_count(fs->super);
    auto unmark = [&](blk64_t first, blk64_t count) {
        // Only blocks inside the filesystem; a descriptor pointing elsewhere is left alone.
        if (first == 0 || count == 0 || first >= blocks || count > blocks - first)
            return;
        ext2fs_unmark_block_bitmap_range2(fs->block_map, first, static_cast<unsigned>(count));
    };
    for (dgrp_t group = 0; group < fs->group_desc_count; ++group) {
        if (!ext2fs_group_desc_csum_verify(fs, group))
            continue;
        const bool inodesUninit = ext2fs_bg_flags_test(fs, group, EXT2_BG_INODE_UNINIT);
        const std::uint32_t unusedInodes = ext2fs_bg_itable_unused(fs, group);
        if (unusedInodes > inodesPerGroup ||
            (inodesUninit && ext2fs_bg_free_inodes_count(fs, group) != inodesPerGroup))
            continue; // contradicts itself: copy it all
        if (ext2fs_bg_flags_test(fs, group, EXT2_BG_BLOCK_UNINIT))
            unmark(ext2fs_block_bitmap_loc(fs, group), 1);
        const blk64_t table = ext2fs_inode_table_loc(fs, group);
        if (inodesUninit) {
            unmark(ext2fs_inode_bitmap_loc(fs, group), 1);
            unmark(table, fs->inode_blocks_per_group);
            continue;
        }
        const std::uint32_t usedInodes = inodesPerGroup - unusedInodes;
        if (unusedInodes == 0 || inodesPerBlock == 0)
            continue;
        // No inode the bitmap marks in use may lie in the part taken out.
        const ext2_ino_t firstUnused = group * inodesPerGroup + usedInodes + 1;
        const ext2_ino_t lastInGroup = (group + 1) * inodesPerGroup;
        ext2_ino_t inUse = 0;
        if (ext2fs_find_first_set_inode_bitmap2(fs->inode_map, firstUnused, lastInGroup, &inUse) !=
            ENOENT)
            continue;
        const blk64_t usedBlocks = (usedInodes + inodesPerBlock - 1) / inodesPerBlock;
        if (usedBlocks < fs->inode_blocks_per_group)
            unmark(table + usedBlocks, fs->inode_blocks_per_group - usedBlocks);
    }
}

bool isExt(const QString &filesystem)
{
    return filesystem == QLatin1String("ext2") || filesystem == QLatin1String("ext3") ||
           filesystem == QLatin1String("ext4") || filesystem == QLatin1String("ext4dev");
}

} // namespace

bool usedExtentsSupported(const QString &filesystem)
{
    return isExt(filesystem) || !partcloneProgram(filesystem).isEmpty();
}

std::optional<std::vector<Extent>> usedExtents(const QString &device, qint64 offsetBytes,
                                               qint64 sizeBytes, const QString &filesystem,
                                               QString *error, const MapProgress &progress)
{
    if (error)
        error->clear();
    if (!usedExtentsSupported(filesystem))
        return std::nullopt;
    if (filesystem == QLatin1String("vfat")) {
        // The FAT itself first; what it refuses, partclone's map may still read.
        QString fatError;
        if (auto extents = fatUsedExtents(device, offsetBytes, sizeBytes, &fatError))
            return extents;
        auto extents =
            partcloneUsedExtents(device, offsetBytes, sizeBytes, filesystem, error, progress);
        if (!extents && error)
            *error = fatError + QLatin1Char(' ') + *error;
        return extents;
    }
    if (!isExt(filesystem))
        return partcloneUsedExtents(device, offsetBytes, sizeBytes, filesystem, error, progress);
    auto unknown = [&](const QString &why) -> std::optional<std::vector<Extent>> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (offsetBytes < 0 || sizeBytes <= 0)
        return unknown(QStringLiteral("Invalid range %1+%2 for %3.")
                           .arg(offsetBytes)
                           .arg(sizeBytes)
                           .arg(device));

    const QByteArray name = QFile::encodeName(device);
    const QByteArray options = "offset=" + QByteArray::number(offsetBytes);
    FilesystemCloser closer;
    errcode_t code = ext2fs_open2(name.constData(), options.constData(), EXT2_FLAG_64BITS, 0, 0,
                                  unix_io_manager, &closer.fs);
    if (code != 0)
        return unknown(QStringLiteral("Cannot open the %1 filesystem at byte %2 of %3: %4.")
                           .arg(filesystem)
                           .arg(offsetBytes)
                           .arg(device, ext2Error(code)));
    ext2_filsys fs = closer.fs;
    const QString where = QStringLiteral("The %1 filesystem at byte %2 of %3")
                              .arg(filesystem)
                              .arg(offsetBytes)
                              .arg(device);

    // The bitmap is only trustworthy on a filesystem that was unmounted cleanly: with a journal
    // still to replay, blocks allocated in the last transactions are marked only in the journal.
    if (fs->super->s_state & EXT2_ERROR_FS)
        return unknown(where + QStringLiteral(" has errors recorded; run e2fsck on it."));
    if (!(fs->super->s_state & EXT2_VALID_FS))
        return unknown(where + QStringLiteral(" was not unmounted cleanly; run e2fsck on it."));
    if (ext2fs_has_feature_journal_needs_recovery(fs->super))
        return unknown(where + QStringLiteral(" has a journal to replay; mount and unmount it "
                                              "or run e2fsck on it."));

    const std::uint64_t blockSize = fs->blocksize;
    const blk64_t blocks = ext2fs_blocks_count(fs->super);
    const std::uint64_t partitionSize = static_cast<std::uint64_t>(sizeBytes);
    if (blocks == 0 || blocks > partitionSize / blockSize)
        return unknown(where + QStringLiteral(" (%1 blocks of %2 bytes) is larger than its "
                                              "partition of %3 bytes.")
                                   .arg(blocks)
                                   .arg(blockSize)
                                   .arg(sizeBytes));

    if ((code = ext2fs_read_bitmaps(fs)) != 0)
        return unknown(where +
                       QStringLiteral(": reading its bitmaps failed: %1.").arg(ext2Error(code)));
    unmarkUnusedGroupBlocks(fs);

    std::vector<Extent> extents;
    append(extents, 0, std::min<std::uint64_t>(kAlwaysCopied, partitionSize));
    const blk64_t last = blocks - 1;
    blk64_t position = fs->super->s_first_data_block;
    while (position <= last) {
        blk64_t used = 0;
        code = ext2fs_find_first_set_block_bitmap2(fs->block_map, position, last, &used);
        if (code == ENOENT)
            break;
        if (code != 0)
            return unknown(
                where +
                QStringLiteral(": scanning its block bitmap failed: %1.").arg(ext2Error(code)));
        blk64_t free = 0;
        code = ext2fs_find_first_zero_block_bitmap2(fs->block_map, used, last, &free);
        if (code == ENOENT)
            free = last + 1;
        else if (code != 0)
            return unknown(
                where +
                QStringLiteral(": scanning its block bitmap failed: %1.").arg(ext2Error(code)));
        append(extents, used * blockSize, std::min<std::uint64_t>(free * blockSize, partitionSize));
        position = free;
    }
    return extents;
}

quint64 extentBytes(const std::vector<move::Extent> &extents)
{
    quint64 bytes = 0;
    for (const auto &e : extents)
        bytes += e.length;
    return bytes;
}

} // namespace partwise
