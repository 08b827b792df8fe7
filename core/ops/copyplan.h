#pragma once

// Copying a disk (or one partition of it) onto another disk or image, every partition on the
// grain: what would happen, worked out before anything is written. prepareCopy() reads both
// sides and plans; runCopy() (copyrunner.h) carries the plan out. Nothing here writes.

#include "align/alignmentpolicy.h"
#include "align/copyplacement.h"
#include "boot/bootinventory.h"
#include "device/discardsupport.h"
#include "device/sourcehold.h"
#include "move/moverequest.h"
#include "ops/copyids.h"
#include "table/disklayout.h"

#include <QList>
#include <QMap>
#include <QStringList>

#include <memory>
#include <vector>

namespace partwise {

struct CopyOptions
{
    AlignmentPolicy policy; // the grain the target's partitions start on
    QString tableType;      // "gpt" or "msdos" for the new table; empty keeps the source's
    CopyGrowth growth = CopyGrowth::KeepSizes;
    bool newIds = false;     // new filesystem UUIDs, partition GUIDs, disk GUID, MBR signature
    CopyIds ids;             // with newIds: the ids an earlier plan chose (ops/copyids.h)
    int sourcePartition = 0; // 0: the whole disk; N: only partition N (onto a fresh table)
    qint64 forcedSourceSectorSize = 0; // images: 0 detects
    qint64 forcedTargetSectorSize = 0; // images: 0 detects, else the source's
    QString journalPath;               // empty: copyJournalPath(target, journalFolder)
    QString journalFolder; // for disks (images keep theirs beside them); empty: the default
    QString backupRoot;    // empty: defaultBackupRoot()
    bool verify = true;    // read every copied byte back from the target
    bool discard = true;   // discard what the copy does not write (copydiscard.h), where it can
    // Run a plan that says the copy will not boot as the source does ("boot breaks").
    bool acceptBootChange = false;
};

// What happens to one partition's data.
enum class CopyData {
    UsedBlocks, // only the blocks its filesystem uses (fs/usedblocks.h)
    Whole,      // every byte: no map of its used blocks (why: CopyPartitionPlan::wholeReason)
    Recreate,   // swap: made anew with mkswap, keeping its UUID and label
    Shrunk,     // shrunk in a sparse scratch copy first, then that copy's used blocks
    None,       // an extended partition: only its EBRs, which the table code writes
};
QString copyDataName(CopyData data); // "used-blocks", "whole", "recreate", "shrink", "none"

// How the target's bytes the copy does not write are given back before it copies
// (ops/copydiscard.h).
enum class CopyDiscard {
    None,  // kept as they are: --no-discard, or a target that cannot
    Holes, // an image: holes punched
    Trim,  // a block device that takes discards: TRIM
};
QString copyDiscardName(CopyDiscard discard); // "none", "holes", "trim"
bool parseCopyDiscard(const QString &name, CopyDiscard *discard);

// What a partition's table entry carries onto a table of type `targetTable` ("gpt" or
// "msdos"): onto the same type its flags and its type (GPT type GUID or MBR type byte as two hex
// digits) as they are; across types only the flags that mean the same on both (lvm, raid, esp,
// bios_grub), the type then being what libparted makes of the filesystem and those flags.
// The disk copy and a Paste follow this one rule.
struct CarriedEntry
{
    QStringList flags;
    QString typeId; // empty: libparted's
};
CarriedEntry carriedEntry(const QString &sourceTable, const QString &targetTable,
                          const QStringList &flags, const QString &typeId);

struct CopyPartitionPlan
{
    int sourceNumber = 0;
    int targetNumber = 0; // GPT and primaries keep their numbers; logicals are renumbered in order
    PartitionInfo::Kind kind = PartitionInfo::Kind::Primary;
    QString filesystem, label, uuid, name; // name: GPT partition name
    QStringList flags;
    QString typeId;        // GPT type GUID, or the MBR type byte as two hex digits
    QString partitionGuid; // GPT partition GUID the target keeps (empty: new, or MBR)
    QString newUuid; // with new ids: the filesystem UUID the target gets (empty: the source's)
    qint64 oldStart = 0, oldEnd = 0; // source sectors, inclusive
    qint64 newStart = 0, newEnd = 0; // target sectors, inclusive
    qint64 filesystemBytes = 0;      // the filesystem's size on the source (0: unknown/none)
    qint64 newFilesystemBytes = 0;   // its size on the target: grown or shrunk; 0 as it is
    CopyData data = CopyData::Whole;
    QString wholeReason; // why it is copied whole (no map), empty otherwise
    quint64 bytesToCopy = 0;
    bool grows() const { return newFilesystemBytes > filesystemBytes && filesystemBytes > 0; }
    bool shrinks() const { return newFilesystemBytes > 0 && newFilesystemBytes < filesystemBytes; }
};

struct CopyPlan
{
    QString source, target;
    qint64 sourceSectorSize = 512, targetSectorSize = 512;
    qint64 targetSizeBytes = 0;
    QString sourceTable, targetTable; // "gpt" or "msdos"
    qint64 grainBytes = 1 << 20;
    CopyGrowth growth = CopyGrowth::KeepSizes;
    bool newIds = false;
    QString diskId; // MBR signature (8 hex digits) or GPT disk GUID the target gets; empty: new
    CopyDiscard discard = CopyDiscard::None;
    qint64 discardGranularity = 0; // bytes a discard is rounded to (0: the sector)
    QString noDiscardReason;       // with CopyDiscard::None: why

    QList<CopyPartitionPlan> partitions; // in the target's disk order
    // A BIOS boot partition the copy adds (MBR converted to GPT under GRUB for BIOS).
    bool addsBiosBoot = false;
    qint64 biosBootStart = 0, biosBootEnd = 0;
    int biosBootNumber = 0;
    // Boot code carried: the MBR's first 440 bytes, and GRUB's core.img where it lies between
    // the MBR and the first partition (copied to the same sectors, or into the added BIOS boot
    // partition, and GRUB's pointers moved with it).
    bool copiesBootCode = false;
    qint64 gapSectors = 0; // source sectors 1..gapSectors copied as GRUB's core.img (0: none)
    // MBR to GPT under syslinux: the MBR's code is syslinux's gptmbr.bin instead of the
    // source's, and the active partition gets GPT's Legacy BIOS Bootable attribute
    // (legacy_boot), which gptmbr.bin loads as mbr.bin loaded the active one.
    bool syslinuxGptMbr = false;

    quint64 bytesToCopy = 0;
    double estimatedSeconds = 0;
    QStringList refused;    // why this copy cannot run; empty when it can
    QStringList notes;      // worth saying: left-out free space, partitions copied whole
    QStringList bootFixes;  // what Partwise does so the copy boots as the source did
    QStringList bootBreaks; // what will not boot from the copy, and the command that repairs it

    bool ok() const { return refused.isEmpty(); }
    const CopyPartitionPlan *bySourceNumber(int number) const;
};

// What prepareCopy knows of the source besides its layout, per partition (by source number);
// the pure planner below takes it so it can be tested without filesystems.
struct CopySourceFacts
{
    struct Partition
    {
        int number = 0;
        qint64 filesystemBytes = 0; // 0: unknown / none
        qint64 minimumBytes = 0;    // how far it may shrink; 0: it cannot
        bool canGrow = false;
        bool hasMap = false;            // its used blocks are known
        quint64 usedBytes = 0;          // with a map: the bytes it covers
        std::vector<move::Extent> used; // with a map: the extents, of the whole partition
        QString wholeReason;
        QString resizeLimit;   // why it is neither shrunk nor grown (fs/resizelimit.h)
        qint64 unitBytes = 0;  // libblkid's BLOCK_SIZE (ops/copysectorsize.h); 0: unknown
        QByteArray bootSector; // FAT and NTFS: the first 512 bytes, which record the geometry
    };
    QList<Partition> partitions;
    bool grubInMbrGap = false; // GRUB's core.img between the MBR and the first partition
    qint64 grubGapLastSector = 0;
    bool grubBiosBoot = false;         // GRUB for BIOS from a BIOS boot partition (GPT)
    bool mbrBootCode = false;          // the MBR holds boot code worth carrying
    bool gptMbrInstalled = false;      // this machine has kSyslinuxGptMbr (below)
    QString diskSignature;             // MBR: 8 hex digits; GPT: the disk GUID
    QMap<int, QString> typeIds;        // by number: GPT type GUID or MBR type (hex)
    QMap<int, QString> partitionGuids; // by number: GPT partition GUIDs
    QStringList busySource; // why the source may not be read consistently (mounted rw ...)
    QStringList busyTarget; // why the target may not be written
    BootInventory boot;     // what boots from the source (boot/bootinventory.h)
    const Partition *byNumber(int number) const;
};

struct CopyTargetInfo
{
    QString path;
    qint64 sizeBytes = 0;
    qint64 sectorSize = 512;
    bool isBlockDevice = false;
    bool sameAsSource = false; // the same disk or file: refused
    DiscardSupport discard;
};

// Syslinux's MBR code for GPT disks (Debian's syslinux-common).
inline constexpr char kSyslinuxGptMbr[] = "/usr/lib/syslinux/mbr/gptmbr.bin";

// The plan from facts already gathered. Pure: no I/O.
CopyPlan planCopy(const DiskLayout &source, const CopySourceFacts &facts,
                  const CopyTargetInfo &target, const CopyOptions &options);

struct PreparedCopy
{
    bool ok = false; // both sides could be read (the plan may still refuse: plan.refused)
    QString error;
    DiskLayout source; // the source's layout as read
    CopySourceFacts facts;
    CopyTargetInfo target;
    CopyPlan plan;
    QString journalPath;
    // Held while the plan was made: while it is unchanged, the copy takes the maps in `facts`
    // instead of reading them again. Null: the copy reads them again.
    std::shared_ptr<const SourceHold> sourceHold;
};

// Reads the source (read-only), its used-block maps, what boots it and what is mounted, and the
// target's size and sector size, then plans. Writes nothing. Blocking (maps take seconds).
PreparedCopy prepareCopy(const QString &source, const QString &target, const CopyOptions &options);

// The plan in words, for --dry-run and the wizard's summary: old → new place per partition,
// bytes, time, what is refused and why, what it does to booting.
QStringList copyPlanText(const CopyPlan &plan);

// Why `source` cannot be read consistently now: a filesystem on it mounted read-write, or swap
// on it. A read-only mount is fine. Empty when it may be copied.
// `onlyPartition` (a paste reads one partition): what is mounted on the disk's other partitions
// is no reason to refuse; the whole disk's nodes still count.
QStringList copySourceRefusals(const QString &source, bool isImage, int onlyPartition = 0);

// Where a copy's journal lives by default: beside an image target, or in `stateDir` (default
// /var/lib/partwise/moves) for a block device; never on the target.
QString copyJournalPath(const QString &target, const QString &stateDir = QString());

// What a disk that a copy stopped part-way onto is, for a person: why it has no table, and how
// the copy is finished.
QString interruptedCopyText(const QString &target);

// A rough duration for the plan (seconds): its bytes read, written and read back.
double estimateCopySeconds(quint64 bytesToCopy, bool verify);

} // namespace partwise
