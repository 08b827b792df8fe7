// An ext2/3/4 filesystem inside an image file, read with e2fsprogs at a byte offset
// (`image?offset=N`): no loop device, no root. The expected values of the resize and Apply
// suites come from these tools, never from Partwise.
#pragma once

#include <QByteArray>
#include <QString>

namespace pwtest {

// `image?offset=...` for the filesystem starting at `startSector` (512-byte sectors).
QString extAt(const QString &image, qint64 startSector);
// The filesystem's size as dumpe2fs reports it (block count × block size); 0 if unreadable.
qint64 extBytes(const QString &image, qint64 startSector);
// The file `/name` as debugfs reads it.
QByteArray extFile(const QString &image, qint64 startSector, const QString &name);

} // namespace pwtest
