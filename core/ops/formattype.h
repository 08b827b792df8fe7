#pragma once

#include "ops/operationexecution.h"

namespace partwise {

// Gives partition `number` of `layout` the table type its new contents `content` have (FAT32:
// MBR 0x0b, NTFS/exFAT 0x07, swap 0x82, Linux 0x83; GPT basic data, swap, Linux filesystem), as
// a new partition of them gets it from libparted. Only the entry's type is written (libfdisk,
// as a paste's type is): the kernel's partitions do not change, so other partitions of the disk
// may stay mounted. Nothing is written when the entry has that type already.
bool giveContentType(const OperationContext &context, const DiskLayout &layout, int number,
                     const QString &content, QString *error);

} // namespace partwise
