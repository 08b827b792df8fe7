// The drives of a test guest (tests/support/guest/guest-run), as QEMU was told to make them:
// the expected values of the guest suites. Each is found by its serial number through lsblk,
// since the kernel names drives in the order their controllers answer, which varies by boot.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace pwtest {

struct GuestDrive
{
    QString name; // drives.conf's: sata512e, nvme4kn, ...
    QString bus;  // sata, nvme, usb, scsi
    qint64 sizeBytes = 0;
    int logical = 0;
    int physical = 0;
    QString model; // "-" where QEMU takes none
    QString serial;
    QString node; // /dev/sdb, /dev/nvme0n1: found at run time

    QString partition(int n) const; // partitionNode(node, n)
};

// The kernel's node of partition n of `disk`: /dev/sdb2, /dev/nvme0n1p2.
QString partitionNode(const QString &disk, int n);

// Reads PW_GUEST_DRIVES and finds each drive's node; an empty list with `error` outside a guest.
QList<GuestDrive> guestDrives(QString *error);
// The drive named `name` of `drives` (an empty node when absent).
GuestDrive guestDrive(const QList<GuestDrive> &drives, const QString &name);

// `udevadm settle`: the nodes of a table just written exist, and udev's rules have run.
void settleUdev();
// Mounts of the kernel (/proc/self/mounts) whose source is `diskNode` or one of its
// partitions: "SOURCE TARGET" lines, sorted.
QStringList mountsOf(const QString &diskNode);

} // namespace pwtest
