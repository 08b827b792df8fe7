// The disk layouts the end-to-end realignment tests start from (legacy MBR and GPT, chains,
// logical partitions, shrink and move-down cases), and the tool helpers they check with.
#pragma once

#include "blkidprobe.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace pwtest {

inline constexpr qint64 kSector = 512;
inline constexpr qint64 kGrainSectors = 2048; // 1 MiB, the default grain

struct PartSpec
{
    int number = 0;
    QString fs; // empty for the extended partition
    QString label;
    qint64 start = 0;
    qint64 size = 0;
    qint64 shrinkBy = 0; // sectors the layout leaves missing, so the filesystem must give them up
};

struct Layout
{
    QString name;
    qint64 diskSectors = 0;
    QString script;     // for sfdisk
    QStringList parted; // then `parted -s -a none IMAGE unit s ...`, when not empty
    QList<PartSpec> parts;
    bool extendedMayMove = false; // shifts with its logical partitions to make room
};

struct Template
{
    Layout layout;
    QString path;
    QMap<int, BlkidInfo> ids; // per partition, as blkid saw it after mkfs
};

inline const QString kLinuxGuid = QStringLiteral("0FC63DAF-8483-4772-8E79-3D69D8477DE4");
inline const QString kDataGuid = QStringLiteral("EBD0A0A2-B9E5-4433-87C0-68B6B72699C7");
inline const QString kSwapGuid = QStringLiteral("0657FD6D-A4AB-43C4-84E5-0933C84B4F4F");

// MBR as old tools left it: p1 at 63 and p2 right behind it (a chain), an extended partition
// with three logical partitions separated only by their EBR sector, free space at both ends.
Layout mbrLegacy();

// GPT as old tools left it: first usable LBA 34, a chain of three adjacent partitions from 34,
// then swap at an odd sector and free space before the backup GPT.
Layout gptLegacy();

// A logical partition that can only move down: XFS 7 sectors past the grain with an aligned
// FAT partition (its EBR put right after the XFS by parted) close behind it, so it shifts by
// 3.5 KiB over its own data: every chunk goes through the journal.
Layout mbrDown();

// No room for the whole partition on the grain: ext4 at 34 and NTFS right behind it must
// each give up a few sectors (100 and 50) before an aligned FAT partition that stays put, so
// resize2fs and ntfsresize shrink them first.
Layout gptShrink();

// A chain with free space only before it: FAT 5 sectors past the grain, XFS right behind it up
// to the last usable sector. Neither can move up or shrink; both follow each other down.
Layout gptDownChain();

// Where the free space lies around a misaligned partition at MBR sector 63 (3 MiB + 63 for
// Before) that is followed directly by an aligned ext4 partition.
enum class Room {
    After,  // 1 MiB free between the two
    Beyond, // free space only after the ext4 partition
    Before, // free space only before the misaligned partition
    None,   // no free space on the disk
};
// `fs` is a fsfixture type (ext4, xfs, btrfs, fat16, fat32, ntfs, exfat, swap). Shrinkable
// filesystems are expected to give up the sectors up to the grain where there is no room after.
// `regionSectors` overrides the size of partition 1's region (0: what the filesystem needs).
Layout matrixLayout(const QString &fs, Room room, qint64 regionSectors = 0);

// FAT32 too small for libparted to shrink, with free space only beyond its neighbour.
Layout smallFat32Beyond();

// An extended partition that must shift up with its logical partitions to let XFS reach the grain.
Layout mbrExtendedMoves();

// Misaligned logical partitions filling an extended partition to its end.
Layout mbrTightLogicals();

// `cp --sparse=always`, replacing `to`.
bool copySparse(const QString &from, const QString &to, QString *error);
// Where `partwise-cli realign` keeps the journal of an image by default.
QString journalOf(const QString &image);
// Partition `number`'s start as the kernel sees it on a loop device (sysfs), as text.
QString sysfsStart(const QString &loop, int number);

// Detaches whatever loop device still shows the image. A killed partwise-cli leaves its loop
// devices to the kernel's autoclear; this makes sure before the next step uses the image.
void detachLoopsOf(const QString &image);

// FAT's hidden-sectors field as mtools reads it.
qint64 fatHiddenSectors(const QString &node);

} // namespace pwtest
