// Bootable disk images for tests/boot, each made once per run with the loaders' own installers
// (grub-install, grub-mkimage, syslinux, extlinux) and a kernel from Debian plus a busybox
// initramfs whose /init prints kBootMarker on the serial console and powers off.
#pragma once

#include <QString>
#include <QStringList>

namespace boottest {

inline constexpr char kBootMarker[] = "PARTWISE-BOOT-MARKER";

struct BootFixtures
{
    QString dir;    // where the images live
    QString kernel; // vmlinuz
    QString initrd; // newc cpio
    QString binDir; // udevadm stand-in, put first on grub-install's PATH
    QString error;

    // Kernel and initramfs; false with `error` when a tool or the kernel is missing.
    bool prepare(const QString &directory);

    // Each returns the image's path, or an empty string with `error` set.
    QString grubMbrGap();   // MBR, ext4 at 63, GRUB for BIOS in sectors 1–62
    QString grubBiosBoot(); // GPT, BIOS boot partition 34–2047 holding core.img, ext4 at 2048
    QString syslinuxFat();  // MBR, FAT32 at 63, syslinux and its mbr.bin
    QString extlinuxExt();  // MBR, ext4 at 63, extlinux and mbr.bin, start 63 recorded
    QString grubEfi();      // GPT, ESP (FAT32) at 34, GRUB for EFI on the removable path
    // As grubEfi, its ESP at 2048 a FAT32 of 4 KiB clusters (260 MiB): one that goes onto 4Kn.
    QString grubEfiFourKnReady();
    // GRUB for BIOS that loads core.img by absolute sectors (grub-install --force):
    QString grubBlocklists();          // GPT, ext4 at 34, no BIOS boot partition: in the MBR
    QString grubPartitionBootSector(); // MBR, ext4 at 63 with GRUB in its boot sector, mbr.bin

private:
    bool grubInstalledOn(const QString &image, bool partitionBootSector);
    // mkfs.fat -F 32 at `start` (then `mkfsTail`), GRUB for EFI, its config, kernel and initrd.
    bool grubEfiOnEsp(const QString &image, qint64 start, const QStringList &mkfsTail);
};

// GRUB for BIOS as grub-install leaves it with a BIOS boot partition, written from GRUB's own
// files (/usr/lib/grub/i386-pc) without root: boot.img's code in the MBR (the table kept)
// pointing at `coreSector`, and diskboot.img there whose block list names the next
// `coreSectors` sectors. Nothing to boot: for what the window and `check` read.
bool writeGrubBiosBootCode(const QString &image, qint64 coreSector, int coreSectors,
                           QString *error);

// The kernel the tests boot: PARTWISE_TEST_KERNEL, or where .ci/install-deps unpacks it.
QString testKernelPath();

struct BootRun
{
    bool booted = false;
    double seconds = 0;
    QString tail; // the end of the serial console, for failure messages
};

// Boots `image` in QEMU (TCG, no network, serial on stdout, powers off after the marker); with
// `uefi`, through OVMF. Gives up after `timeoutMs`. With `nvmeSectorSize` the disk is an NVMe
// namespace of that logical and physical block size (4096: a 4Kn drive), else virtio.
BootRun bootImage(const QString &image, bool uefi, int timeoutMs = 60000, int nvmeSectorSize = 0);

} // namespace boottest
