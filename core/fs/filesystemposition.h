#pragma once

#include <QString>

namespace partwise {

// FAT and NTFS boot sectors record where their partition starts ("hidden sectors", BPB offset
// 0x1C); Windows and some boot loaders rely on it, and no filesystem tool rewrites it after a
// move. extlinux keeps the same BPB in the boot block of ext2/3/4 (the first sector, which ext
// leaves free) and loads ldlinux.sys from there when the MBR hands over no partition entry.
// These 32-bit fields are all Partwise writes by hand, after reading the boot sector back and
// checking its signature (for ext: extlinux's OEM name, boot/bootcode.h).
bool updateHiddenSectors(const QString &path, qint64 filesystemOffsetBytes,
                         qint64 partitionSizeBytes, const QString &filesystem,
                         qint64 newStartSector, QString *error);

// Whether updateHiddenSectors() would write anything for that filesystem: FAT and NTFS when the
// field can hold the start, ext2/3/4 only when extlinux's boot sector is there.
bool recordsItsStart(const QString &path, qint64 filesystemOffsetBytes, const QString &filesystem,
                     qint64 newStartSector);

} // namespace partwise
