#pragma once

// What a sector of boot code is, told from the bytes alone.
//
// Why by hand: these are tiny fixed layouts (512-byte sectors whose code and messages do not
// change between installs) that no library reads; libblkid names filesystems and tables, not
// the code in front of them. Each kind is told by what its own sector always carries, listed
// at each function; anything else is "unknown" and never written to.

#include <QByteArray>
#include <QString>

#include <optional>

namespace partwise {

// The code in the MBR's first 440 bytes (before the disk signature and the table).
enum class MbrCode {
    None,         // the sector could not be read, or carries no 0x55AA signature
    Empty,        // all zeros: no code (a data disk, or a GPT disk booted only by UEFI)
    Grub,         // GRUB 2's boot.img: loads core.img from the absolute sector it records
    GrubLegacy,   // GRUB 0.9x's stage1: loads stage2 from an absolute sector too
    Syslinux,     // syslinux's mbr.bin, altmbr.bin or gptmbr.bin: loads the active partition
    WindowsNt,    // DOS, Windows 9x, NT, 2000 and XP: loads the active partition's boot sector
    WindowsVista, // Vista and later (the same, with BitLocker's TPM measurement)
    Generic,      // libparted's own (and so Partwise's, on a new MBR table): loads the active one
    Unknown,      // code nothing here recognises
};

// Stable names used in `check --json`: "empty", "grub", "grub-legacy", "syslinux",
// "windows-nt", "windows-vista", "generic", "unknown"; an empty string for None.
QString mbrCodeName(MbrCode code);

// Signatures, in the first 440 bytes of a sector that ends in 0x55AA:
// - GRUB 2 boot.img: the message table "GRUB \0Geom\0Hard Disk\0Read\0 Error" and a first
//   jump over the BPB to 0x65 (EB 63). GRUB 0.9x stage1 has the same messages and jumps to
//   0x4A (EB 48).
// - syslinux: "Operating system load error." (mbr.bin, altmbr.bin) or "Missing OS" together
//   with "Multiple active partitions" (gptmbr.bin).
// - Windows: "Invalid partition table" and "Error loading operating system"; Vista and later
//   also compare against "TCPA" (the TPM interface BitLocker measures through).
MbrCode identifyMbrCode(const QByteArray &sector);

// GRUB 2's boot.img records, little-endian 64-bit at offset 0x5C, the absolute sector
// (512-byte units) of core.img's first sector (diskboot.img). Only for a GRUB 2 sector.
std::optional<quint64> grubCoreSector(const QByteArray &sector);
constexpr int kGrubKernelSectorOffset = 0x5C;

// The loader in a partition's boot sector (its first sector).
enum class PartitionLoader {
    None,     // nothing recognised (a filesystem's own "not bootable" code, zeros)
    Grub,     // GRUB 2's boot.img installed into the partition (grub-install --force /dev/sdXN)
    Syslinux, // syslinux on FAT, extlinux on ext2/3/4 or btrfs (the same boot sector)
    Ntldr,    // Windows 2000/XP's boot sector (FAT or NTFS), which loads NTLDR
    Bootmgr,  // Windows Vista and later, which loads BOOTMGR and reads \Boot\BCD
};

// - GRUB 2: as identifyMbrCode().
// - syslinux/extlinux: the OEM name "SYSLINUX" or "EXTLINUX" at offset 3 and "Boot error".
// - NTLDR / BOOTMGR: the file name the sector loads, "NTLDR" or "BOOTMGR", in its messages
//   ("NTLDR is missing", "BOOTMGR is compressed") or its FAT directory entry ("BOOTMGR    ").
PartitionLoader identifyPartitionLoader(const QByteArray &sector);

// Names for `check --json`: "grub", "syslinux" ("extlinux" on a filesystem other than FAT),
// "ntldr", "bootmgr"; empty for None.
QString partitionLoaderName(PartitionLoader loader, const QString &filesystem);

} // namespace partwise
