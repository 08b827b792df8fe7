#pragma once

#include "table/partitionspec.h"

#include <QList>

namespace partwise {

// Writes a brand-new partition table holding exactly `partitions` (in order: an extended
// partition before its logicals). Geometry is taken as given: libparted is asked for the exact
// sectors, with cylinder alignment off, so legacy layouts can be reproduced too.
// Images only: devices are written through the operations queue, which backs up first.
bool writeFreshTable(const QString &imagePath, qint64 sectorSize, const QString &tableType,
                     const QList<PartitionSpec> &partitions, QString *error);

// The same onto a block device too (a disk copy, whose runner backed the target up and holds
// its journal): the kernel is then told of the new partitions. A GPT gets at least `gptEntries`
// entries (its source's), and partitions numbered past libparted's 128 are written after it
// through libfdisk (gptentrycount.h); the kernel hears of those at its next read of the table.
bool writeFreshTableOn(const QString &path, bool isImage, qint64 sectorSize, qint64 sizeBytes,
                       const QString &tableType, const QList<PartitionSpec> &partitions,
                       QString *error, int gptEntries = 0);

} // namespace partwise
