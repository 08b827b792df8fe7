#pragma once

#include <QString>

namespace partwise {

// Whether a disk or image refuses writes. access() only sees file permissions, which root
// always passes; a read-only block device (`losetup -r`, a write-protected SD card, a
// read-only iSCSI LUN) says so through BLKROGET.
bool isWriteProtected(const QString &path);

} // namespace partwise
