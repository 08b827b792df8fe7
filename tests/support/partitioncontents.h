// Every partition of an image as independent tools see it: the filesystem libblkid finds, each
// filesystem's own read-only check, and the SHA-256 of every file, read as root through a
// read-only loop device. Tests take it before and after a job and compare.
#pragma once

#include "sfdisktable.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace pwtest {

struct PartitionContents
{
    QString fs;                      // libblkid's TYPE; partitions without one are left out
    QMap<QString, QByteArray> files; // relative path -> SHA-256 (none for swap)
};

// By partition number. A failed check, an unreadable filesystem or no loop device is added to
// *problems.
QMap<int, PartitionContents> partitionContents(const QString &image, int sectorSize,
                                               const SfdiskTable &table, QStringList *problems);

// What differs between two readings (a partition gone or added, another filesystem, files
// changed, named by path), one line each; empty when they are the same.
QStringList contentsDiffer(const QMap<int, PartitionContents> &before,
                           const QMap<int, PartitionContents> &after);

// What differs between every partition of `source` and of `copy` (both read with
// `sectorSize`-byte sectors), or why they could not be read, one line each; empty when the copy
// holds every file of the source and each filesystem checks clean on both.
QStringList copyDiffers(const QString &source, const QString &copy, int sectorSize = 512);

// sfdisk's reading of an image with `sectorSize`-byte sectors (512: sfdisk -J).
SfdiskTable tableWithSectorSize(const QString &image, int sectorSize);

// What the image takes on its filesystem (st_blocks), or -1.
qint64 allocatedBytes(const QString &path);

} // namespace pwtest
