#pragma once

// What boots from a disk, read before anything is planned (ARCHITECTURE.md, "Boot loaders"):
// the MBR's code and, for GRUB, where core.img lies; a BIOS boot partition; each partition's
// boot sector loader and the start it records; ESPs; a Windows BCD store on an MBR disk; and
// this machine's firmware entries naming one of the disk's partitions. Read-only.

#include "boot/bcdstore.h"
#include "boot/bootcode.h"
#include "boot/firmwareentries.h"
#include "boot/grubcore.h"
#include "table/disklayout.h"

#include <optional>

namespace partwise {

// Where GRUB's boot.img in the MBR finds core.img.
struct GrubCoreInfo
{
    enum class Place {
        MbrGap,            // between the MBR and the first partition
        BiosBootPartition, // embedded in a BIOS boot partition (GPT)
        Partition,         // inside another partition: a file found by block lists
        Missing,           // no diskboot.img where boot.img points
    };
    Place place = Place::Missing;
    quint64 sector = 0;      // core.img's first sector, as boot.img records it
    int partition = 0;       // the partition holding it (BIOS boot or other), else 0
    QList<GrubBlock> blocks; // the rest of core.img, from diskboot.img's block list
    quint64 lastSector = 0;  // the last sector core.img uses
};

QString grubCorePlaceName(GrubCoreInfo::Place place); // "mbr-gap", "bios-boot-partition", ...

struct PartitionBoot
{
    int number = 0;
    PartitionLoader loader = PartitionLoader::None;
    QString loaderName;                    // "grub", "syslinux", "extlinux", "ntldr", "bootmgr"
    std::optional<qint64> recordedStart;   // FAT/NTFS hidden sectors, extlinux's partition offset
    std::optional<quint64> grubCoreSector; // GRUB's boot.img in this boot sector points here
    bool esp = false;
    bool biosBoot = false;
    std::optional<BcdStore> bcd; // looked for on BOOTMGR partitions of MBR disks

    bool isEmpty() const { return loader == PartitionLoader::None && !esp && !biosBoot && !bcd; }
};

struct DiskFirmwareEntry
{
    FirmwareEntry entry;
    int partition = 0; // the partition of this disk it names
};

struct BootInventory
{
    QString disk;
    qint64 sectorSize = 512;
    QString tableType;     // as DiskLayout names it: "gpt", "msdos"
    QString diskSignature; // MBR disk signature, 8 hex digits; empty on GPT
    MbrCode mbrCode = MbrCode::None;
    std::optional<GrubCoreInfo> grubCore;
    int biosBootPartition = 0; // 0 when there is none
    QList<int> espPartitions;
    QList<PartitionBoot> partitions; // one per partition of the layout, in its order
    bool firmwareRead = false;       // this machine's firmware entries were looked at
    QList<DiskFirmwareEntry> firmwareEntries;
    QStringList notes; // what could not be read, in sentences

    const PartitionBoot *partition(int number) const;
};

struct BootReadOptions
{
    // Copy \Boot\BCD out of BOOTMGR partitions on MBR disks (ntfscat; on an image without root,
    // through a scratch copy of that partition).
    bool readBcd = true;
    // This machine's firmware entries (readFirmwareEntries()); null: not looked at. Only
    // meaningful for the machine's own disks, never for images.
    const FirmwareEntries *firmware = nullptr;
    // The disk already open for reading (device/opendisk.h), which is then read, not its name
    // opened again; -1 opens layout.device.path.
    int diskFd = -1;
};

// Reads what boots from the disk `layout` was read from (layout.device.path).
BootInventory readBootInventory(const DiskLayout &layout, const BootReadOptions &options = {});

} // namespace partwise
