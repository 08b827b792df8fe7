#pragma once

#include "fs/mapprogress.h"
#include "move/moverequest.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace partwise {

// partclone's map of the blocks a filesystem uses, for the filesystems libext2fs cannot read:
// NTFS, FAT16/32, exFAT, XFS, btrfs, F2FS and HFS+.
//
// Why partclone: each of these filesystems keeps its allocation state in its own structures (a
// $Bitmap file, the FAT, an allocation bitmap, free-space B+trees, an extent tree, the SIT), and
// reading them right is a filesystem driver's work. partclone (Debian package "partclone", the
// engine behind Clonezilla) already reads every one of them through the filesystems' own
// libraries (libntfs-3g, libxfs, libbtrfs, ...), and `partclone.<fs> --domain` writes the result
// as a ddrescue-style map: one line per run of blocks, '+' used and '?' unused. Partwise runs it
// read-only on the filesystem and reads the map; nothing else of partclone is used.
//
// Why the map is parsed by hand: it is a tiny text format of partclone's own (comment lines, one
// "position status" line, then "position size status" lines in hexadecimal), and no library
// reads it. The parser is strict on purpose: a map that leaves out one used block loses data
// silently, so anything unexpected (a malformed line, a gap or an overlap between ranges, ranges
// that stop before the end the map announces, a status other than '+' or '?') rejects the whole
// map, and the caller copies everything. There is never a partial map.
//
// Why the map is trusted only on a quiet filesystem: partclone reads the allocation state as it
// is on the disk. A filesystem with a journal or log still to replay records its newest
// allocations only there, so its map would leave out blocks that hold data. Before running
// partclone, the state is checked where partclone does not check it itself: XFS's log must be
// clean (xfs_logprint), btrfs must have no log tree, F2FS's checkpoint must come from a clean
// unmount (dump.f2fs), exFAT must not be marked dirty, HFS+ must be marked unmounted and
// consistent. partclone.ntfs refuses a volume marked dirty on its own; FAT has no journal.
// FAT12 gets no map at all: partclone.fat 0.3.23 reports clusters in use as free on FAT12
// (tests/fs/tst_usedmaps_copy shows the damage), so those small filesystems are copied whole.
//
// Memory stays bounded: the map is read line by line from partclone's output (never stored),
// adjacent runs are merged, and past kMaxPartcloneExtents extents the smallest gaps between used
// runs are filled in (copied as if used), so even a 2 TiB filesystem with every other block in
// use gives at most that many extents.

// Extents kept at most (16 bytes each).
constexpr std::size_t kMaxPartcloneExtents = 1 << 16;

// The partclone program that maps `filesystem` (libblkid's TYPE): partclone.ntfs, partclone.fat
// (vfat: FAT16/32; FAT12 is refused when the map is made), partclone.exfat, partclone.xfs,
// partclone.btrfs, partclone.f2fs, partclone.hfsp (hfsplus). Empty for every other type.
QString partcloneProgram(const QString &filesystem);

// Reads a domain map line by line: used runs become sorted, disjoint extents in bytes from the
// filesystem's start. The map must start at byte 0 (no --offset_domain).
class PartcloneDomainParser
{
public:
    // `partitionBytes`: the map may not describe more than this. `maxExtents`: see above.
    explicit PartcloneDomainParser(std::uint64_t partitionBytes,
                                   std::size_t maxExtents = kMaxPartcloneExtents);

    // One line without or with its line break. False once the map is malformed (error() says
    // why); every later line is then ignored.
    bool addLine(const QByteArray &line);

    // The used extents once every line is in; nullopt (with *error) when the map was malformed
    // or incomplete.
    std::optional<std::vector<move::Extent>> finish(QString *error);

    // The bytes the map describes (its "current_pos"); 0 before that line.
    std::uint64_t mappedBytes() const { return m_mappedBytes; }
    QString error() const { return m_error; }

private:
    bool fail(const QString &why);
    void addUsed(std::uint64_t offset, std::uint64_t end);
    void coarsen();

    std::uint64_t m_partitionBytes;
    std::size_t m_maxExtents;
    std::uint64_t m_mappedBytes = 0;
    std::uint64_t m_nextPosition = 0; // where the next run must start
    std::uint64_t m_mergeGap = 0;     // gaps up to this are filled in (after coarsening)
    bool m_sawStatus = false;
    int m_lineNumber = 0;
    QString m_error;
    std::vector<move::Extent> m_extents;
};

// The whole map at once (tests, small maps).
std::optional<std::vector<move::Extent>>
parsePartcloneDomain(const QByteArray &text, std::uint64_t partitionBytes, QString *error,
                     std::size_t maxExtents = kMaxPartcloneExtents);

// Runs partclone's map on the filesystem `offsetBytes` into `device` (block device or image
// file; when the filesystem does not start at byte 0 of a file, a read-only loop device over the
// range as root, else the range as a file through FUSE or a scratch copy) and returns the extents
// to copy: what the map marks used, the first 64 KiB, btrfs's superblock copies, and everything
// past the end of the map up to `sizeBytes` (NTFS keeps its backup boot sector there). nullopt with
// *error when partclone is missing (naming the package), the filesystem is not quiet (see above),
// partclone fails, or its map is malformed. `progress`: from kMapProgressFrom bytes on, what
// partclone reports while it reads the allocation bitmap and while it lists the blocks.
std::optional<std::vector<move::Extent>>
partcloneUsedExtents(const QString &device, qint64 offsetBytes, qint64 sizeBytes,
                     const QString &filesystem, QString *error, const MapProgress &progress = {});

// Filesystems from this size get progress reports: partclone then updates its progress each
// second, and waits up to a second for that at its end, which only pays on large filesystems.
constexpr qint64 kMapProgressFrom = 64LL << 30;

// Reads partclone's progress text (stderr: "Calculating bitmap... Completed:  41.20%", "done!",
// then the same for listing the blocks) piece by piece, and reports step and fraction.
class PartcloneProgressReader
{
public:
    explicit PartcloneProgressReader(MapProgress progress) : m_progress(std::move(progress)) {}
    void add(const QByteArray &text);

private:
    MapProgress m_progress;
    QByteArray m_carry;
    bool m_listing = false; // the bitmap is read: partclone lists the blocks now
};

} // namespace partwise
