#pragma once

// A filesystem that must be smaller on the target than on the source, which is never written:
// its blocks in use are copied into a sparse file of its own (beside the copy's journal) and
// shrunk there with its own tool; the copy then takes that file's blocks in use.

#include "ops/copyplan.h"

#include "fs/filesystemsize.h"

#include <functional>
#include <optional>

namespace partwise {

// How small the filesystem at `where` (in a partition of `partitionBytes`) may be shrunk for a
// copy: its own tool's minimum, else (no estimate from the tool) the `usedBytes` its used-block
// map covers plus a tenth, never below 16 MiB. Nothing when it cannot shrink unmounted (a FAT12:
// fs/resizelimit.h) or neither is known.
std::optional<qint64> copyShrinkMinimumBytes(const FilesystemLocation &where, qint64 partitionBytes,
                                             const QString &filesystem,
                                             std::optional<quint64> usedBytes);

// Makes `scratchPath` hold partition `p` of `source` shrunk to p.newFilesystemBytes. Returns an
// empty string, or why it could not (the tool's refusal with its words).
QString shrinkIntoScratch(const QString &source, qint64 sourceSectorSize,
                          const CopyPartitionPlan &p, const QString &scratchPath,
                          const std::function<void(const QString &)> &log);

} // namespace partwise
