#pragma once

#include "table/partitionspec.h"

#include <QList>
#include <QString>

namespace partwise {

// GPTs of more than 128 entries (sgdisk --resize-table, some installers) may number partitions
// past 128. libparted 3.5 makes every new GPT with 128 entries and has no way to make more: a
// partition numbered 200 is dropped from the table it writes (its entry lands past libparted's
// own array). Those entries go through libfdisk, as sfdisk would write them.

// Grows the entry array of the GPT on `path` to at least `entryCount` entries (and to the highest
// number in `partitions`), then adds `partitions` at their numbers, places and names. Their types
// and GUIDs are left to tableidentifiers.h. False with a sentence in *error when nothing was
// written or the write failed.
bool addGptEntriesBeyondParted(const QString &path, qint64 sectorSize, int entryCount,
                               const QList<PartitionSpec> &partitions, QString *error);

} // namespace partwise
