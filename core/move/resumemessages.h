#pragma once

#include "moveplan.h"

#include <QString>

namespace partwise::move {

// Why resume stopped before writing: a chunk it must copy again is found neither at its
// destination nor at its source (the disk was changed outside the move, or is failing).
// `nothingWritten`: whether this resume had written nothing yet.
QString neitherHolds(const MoveChunk &chunk, const QString &devicePath, const QString &journalPath,
                     bool nothingWritten = true);

} // namespace partwise::move
