#pragma once

#include <QString>

namespace partwise {

// Families of filesystem names that share one set of tools: libblkid's names plus the
// "fat16"/"fat32" a user picks when formatting.
bool isExtFilesystem(const QString &filesystem); // ext2, ext3, ext4
bool isFatFilesystem(const QString &filesystem); // vfat, fat16, fat32

} // namespace partwise
