#pragma once

// Where each partition of a disk lands when the disk is copied onto another one.
//
// A copy is the one moment a layout may be redrawn freely: nothing on the target needs to stay
// where it is, so every partition can start on the grain whatever the source did (sector 63,
// GPT's 34, cylinder ends). The rules, in order:
//  - Order and kind are kept: primaries stay primaries, logicals stay inside their extended
//    partition, numbers are kept on GPT (the table code numbers logicals itself).
//  - Each partition starts on the grain. The first one after the target's reserved area (and
//    after a BIOS boot partition the copy adds), each next one at the grain after the previous
//    one's end. An extended partition starts on the grain, and each logical partition one grain
//    after its EBR: the grain-sized gap before a logical is the EBR's, as DESIGN.md asks.
//  - A partition keeps its exact size unless it grows or shrinks: NTFS keeps a copy of its boot
//    sector in the partition's last sector, where ntfs-3g and Windows look for it, so a
//    partition merely rounded up would lose it. Only starts matter to alignment; the next
//    partition starts on the grain again. A grown partition ends just before a grain boundary.
//  - On a larger target the spare room goes to the last partition (GrowLast) or to every
//    growable partition in proportion to its size (Proportional); KeepSizes leaves it free.
//    Partitions that cannot grow are kept as they are, and their share is not handed on.
//  - On a smaller target the missing room is taken from the partitions that can shrink, in
//    proportion to their slack above the smallest size their data allows (rounded up to the
//    grain); if all the slack is not enough, the placement is refused with the numbers.
// Sizes move between sector sizes through bytes; a source length that is not a whole number of
// target sectors is rounded up.

#include "table/partitioninfo.h"

#include <QList>
#include <QString>

namespace partwise {

enum class CopyGrowth { KeepSizes, GrowLast, Proportional };

QString copyGrowthName(CopyGrowth growth);                     // "keep", "last", "proportional"
bool parseCopyGrowth(const QString &text, CopyGrowth *growth); // accepts those names

struct CopyPlacementPartition
{
    int number = 0;
    PartitionInfo::Kind kind = PartitionInfo::Kind::Primary;
    qint64 lengthBytes = 0;  // the source partition's length
    qint64 minimumBytes = 0; // the smallest its data allows; 0 or >= length: cannot shrink
    bool canGrow = false;    // its filesystem (or none, or swap) can take more room
};

struct CopyPlacementRequest
{
    QList<CopyPlacementPartition> partitions; // in disk order, an extended before its logicals
    qint64 targetSectorSize = 512;
    qint64 targetFirstUsable = 0; // first sector a partition may use on the new table
    qint64 targetLastUsable = 0;  // last sector a partition may use (before a GPT backup)
    qint64 grainBytes = 1 << 20;
    CopyGrowth growth = CopyGrowth::KeepSizes;
    qint64 reservedLeadingBytes = 0; // a BIOS boot partition the copy adds before the first one
};

struct CopyPlacedPartition
{
    int number = 0;
    PartitionInfo::Kind kind = PartitionInfo::Kind::Primary;
    qint64 startSector = 0; // target sectors, inclusive
    qint64 endSector = 0;
    qint64 lengthBytes() const;
    qint64 sectorSize = 512;
};

struct CopyPlacement
{
    bool ok = false;
    QString error;                             // why the partitions do not fit, with the numbers
    qint64 reservedStart = 0, reservedEnd = 0; // the leading reservation, when asked for
    QList<CopyPlacedPartition> placed;         // parallel to the request's partitions
};

CopyPlacement placeCopy(const CopyPlacementRequest &request);

// The sectors a fresh table of `tableType` ("gpt", "msdos") leaves to partitions on a disk of
// `totalSectors` logical sectors of `sectorSize` bytes (GPT: 128 entries and a backup at the end;
// MBR: clear of the 9 KiB at each end that libparted zeroes when it writes a fresh table).
void freshTableUsableRange(const QString &tableType, qint64 totalSectors, qint64 sectorSize,
                           qint64 *firstUsable, qint64 *lastUsable);

} // namespace partwise
