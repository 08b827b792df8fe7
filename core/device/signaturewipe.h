#pragma once

#include <QString>

namespace partwise {

// Erases the signatures of filesystems of one type (libblkid's TYPE, such as "iso9660") that
// start at the first byte of a disk, as `wipefs -a -t TYPE` does, through libblkid. A new
// partition table written over a hybrid ISO leaves the ISO's volume descriptors behind (at
// 32 KiB, past what an MBR or GPT covers), and the disk would still read as an ISO.
// True when none is left; false with a sentence in *error.
bool wipeWholeDiskSignatures(const QString &path, const QString &type, QString *error);

} // namespace partwise
