// A Debian-like disk that boots for real: GRUB for BIOS (a BIOS boot partition) whose grub.cfg
// finds the root by `search --fs-uuid` and passes `root=UUID=` to Debian's kernel; an initramfs
// that mounts that root and hands over to the root's own /sbin/init, which mounts /srv from
// /etc/fstab by UUID and prints what it runs on (the disk and the filesystem UUID of / and /srv,
// the kernel's command line, /etc/crypttab, the BLS entry's options) on the serial console. Booted
// beside a second disk, it shows which disk's filesystems the references led to.
#pragma once

#include <QString>
#include <QStringList>

namespace boottest {

struct BootFixtures;

struct DebianBootDisk
{
    QString image;
    QString rootUuid, srvUuid, swapPartUuid; // the ids its files name
    QString error;

    // Builds the disk in `dir` (root: a loop device, mounts, grub-install); false with `error`.
    bool make(const BootFixtures &fixtures, const QString &dir);
};

// The kernel whose modules the initramfs carries (Debian's generic one, .ci/install-deps).
QString debianKernelDir();

struct ConsoleRun
{
    bool finished = false; // the init printed its marker
    double seconds = 0;
    QByteArray console;
};

// Boots the first of `disks` (BIOS, TCG) with the others attached read-only behind it; disk i
// has the serial "pwdisk<i>".
ConsoleRun bootFirstOf(const QStringList &disks, int timeoutMs = 120000);

} // namespace boottest
