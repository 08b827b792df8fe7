#pragma once

// What a disk is, as opposed to what it is called. A /dev name is handed to the next disk that
// comes along (a stick unplugged and another plugged in, a loop device detached and bound again
// to another file), so a journal of a stopped job, which writes whatever it records, is bound to
// the disk's identity and never resumed or offered on a mismatch:
//   - a drive: the world-wide name or serial the kernel shows in sysfs (wwid, serial), which
//     udev's by-id names come from too; where a drive says neither, its device number;
//   - a loop device: the file (device and inode numbers, the kernel's own, loopbacking.h) or the
//     block device behind it, so the same image comes back under any loop name;
//   - an image file: its device and inode numbers;
// each with the size in bytes.

#include <QString>

namespace partwise {

// The identity of the disk or image at `path`, or empty when it cannot be read.
QString diskIdentityOf(const QString &path);

// Whether `recorded` (a journal's) is the identity of what `path` is now; `why` says otherwise.
bool isSameDisk(const QString &recorded, const QString &path, QString *why);

} // namespace partwise
