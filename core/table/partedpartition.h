#pragma once

#include "table/partitionspec.h"

typedef struct _PedDisk PedDisk;
typedef struct _PedPartition PedPartition;

namespace partwise {

// Adds one partition to a libparted disk at exactly the sectors of `spec`, with its flags,
// name and (when given) number. Returns the new partition, or nullptr (libparted's reason is in the
// PartedSession).
PedPartition *addExactPartition(PedDisk *disk, const PartitionSpec &spec);

// libparted's filesystem-type hint for a libblkid name ("vfat" → "fat32", "swap" → "linux-swap").
const char *partedFilesystemName(const QString &filesystem);

// Gives a partition the type its new contents have, as a new partition of them gets (MBR 0x0b
// FAT32, 0x07 NTFS/exFAT, 0x82 swap, 0x83 Linux; GPT basic data, swap, Linux filesystem);
// "lvm-pv" sets the lvm flag. False when libparted refuses (its reason is in the PartedSession).
bool setPartitionContentType(PedPartition *part, const QString &content);

} // namespace partwise
