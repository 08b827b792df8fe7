#pragma once

// A filesystem that must be smaller on the target than on the source, which is never written:
// its blocks in use are copied into a sparse file of its own (beside the copy's journal) and
// shrunk there with its own tool; the copy then takes that file's blocks in use.

#include "ops/copyplan.h"

#include <functional>

namespace partwise {

// Makes `scratchPath` hold partition `p` of `source` shrunk to p.newFilesystemBytes. Returns an
// empty string, or why it could not (the tool's refusal with its words).
QString shrinkIntoScratch(const QString &source, qint64 sourceSectorSize,
                          const CopyPartitionPlan &p, const QString &scratchPath,
                          const std::function<void(const QString &)> &log);

} // namespace partwise
