#pragma once

// Windows Vista and later keep their boot menu in \Boot\BCD, a registry hive, on the partition
// BOOTMGR boots from. On an MBR disk each entry names its partition by the disk signature and
// the partition's byte offset, so moving a Windows partition (or the one holding BOOTMGR)
// leaves the entry pointing where nothing starts, and Windows no longer boots (on GPT disks
// entries name partition GUIDs, which a move keeps).
//
// A device element (Objects\{object}\Elements\<id>\Element, REG_BINARY, where the id's
// second hex digit 1 marks a device) lays out a partition device as: a 16-byte options GUID,
// then at 0x10 the device type (6 = partition), at 0x18 its size (0x48), at 0x20 the
// partition's byte offset (64-bit; a partition GUID on GPT), at 0x34 the partition style
// (1 = MBR, 0 = GPT) and at 0x38 the disk signature (32-bit; a disk GUID on GPT), all
// little-endian. Devices in files (a ramdisk's WIM) nest such a block inside their own, so the
// whole value is searched. The hive itself is read with libhivex.

#include "fs/filesystemsize.h"

#include <QList>
#include <QString>

#include <optional>

namespace partwise {

struct BcdPartitionDevice
{
    QString object;  // the object's key, "{9dea862c-5cdd-4e70-acc1-f32b344d4795}"
    QString element; // the element's key, "11000001" (the application's device)
    quint32 diskSignature = 0;
    qint64 partitionOffsetBytes = 0;
};

struct BcdStore
{
    bool found = false;                // \Boot\BCD exists
    bool read = false;                 // and was read
    QString error;                     // why it was not found or not read
    QList<BcdPartitionDevice> devices; // every MBR partition device it names
};

// The MBR partition device at the start of `data` or nested inside it, if any.
QList<BcdPartitionDevice> parseBcdDeviceElement(const QByteArray &data);

// Reads a BCD hive file.
BcdStore readBcdHive(const QString &hivePath);

// Copies \Boot\BCD out of the NTFS filesystem at `where` (`bytes` long) with ntfs-3g's ntfscat,
// without mounting, and reads it.
BcdStore readBcdFromNtfs(const FilesystemLocation &where, qint64 bytes);

} // namespace partwise
