#pragma once

// Carrying out a Paste (operation.h) inside Apply: a copy of one partition into free space of
// this disk, from this disk or another one.
//
// The order keeps a kill harmless. The source is opened read-only and never written. The data
// goes into the free space first (only the blocks its filesystem uses, ops/partitioncopy.h) and
// is read back and compared; the filesystem is then told its new start (hidden sectors), grown
// into a larger partition, given a new UUID (it will sit beside its source) and checked by its
// own tool, all by offset inside the disk; last, one libparted commit adds the table entry,
// which gets a new GPT partition GUID. Until that commit the table is as before, so a kill leaves
// the disk as it was; Apply's journal keeps the table before the operation, and `resume` either
// sees the entry (done) or pastes again from the start.

#include "ops/operationexecution.h"

#include <atomic>

namespace partwise {

// Runs the Paste `op` on the disk `before` shows. `tableBefore` as executeOperation() takes it:
// a table that no longer matches it means the entry is written and nothing is left to do.
// `*resumable` is set when `resume` may continue (a cancel); other failures leave the table as
// it was.
bool executePaste(const OperationContext &context, const Operation &op, const DiskLayout &before,
                  const QString &tableBefore, const std::atomic<bool> *cancel, QString *error,
                  bool *resumable);

} // namespace partwise
