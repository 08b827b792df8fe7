#pragma once

// Carrying out one queued operation other than Resize (Resize moves, shrinks and grows, and
// runs through the journaled steps of realignexecution.h): its table change through libparted,
// then what follows on the filesystem (mkfs, a label, a check).
//
// A table change reaches the disk in one commit, so after a kill it either happened or not.
// The Apply's journal keeps the table as it stood before the operation (tableSummary()); on
// resume, a table that differs from it says the change was written, and only the filesystem
// part runs again. Everything after the table change can simply be redone.

#include "align/alignmentpolicy.h"
#include "ops/operation.h"
#include "table/disklayout.h"
#include "table/partedsession.h"

#include <functional>

namespace partwise {

struct RedoJournal; // fs/journaledresize.h

struct OperationContext
{
    QString target;
    qint64 forcedSectorSize = 0;
    AlignmentPolicy policy;
    PartedSession::Resolver ask; // libparted's questions; empty: safe answers
    std::function<void(const QString &)> log;
    // A private folder a Paste may make and remove for the shrunk copy of its source (beside
    // Apply's journal, never on the target); empty: none, and a paste does not shrink.
    QString scratchFolder;
    // Apply's journal and the operation under way: a Paste's redo records sit beside the
    // journal (fs/journaledresize.h), tagged with the operation. Set by Apply, which pastes.
    QString journalPath;
    int operationIndex = 0;
    // A Paste's copy: bytes copied so far of `total` (called from the copying thread).
    std::function<void(quint64 done, quint64 total)> copied;

    bool read(DiskLayout *layout, QString *error) const;
    // Where the operation's table write is journaled (ops/journaledtablecommit.h); no path
    // without a journal.
    RedoJournal tableRedo() const;
    // Where a Label's or New UUID's tool writes are journaled (fs/journaledresize.h).
    RedoJournal filesystemRedo() const;
};

// Runs `op` on the disk `before` shows. When `tableBefore` is set and the table no longer
// matches it, the table change of `op` is already on the disk and only the rest runs.
bool executeOperation(const OperationContext &context, const Operation &op,
                      const DiskLayout &before, const QString &tableBefore, QString *error);

// The table's type and every partition's number and place: what a table change changes.
QString tableSummary(const DiskLayout &layout);

// The partition a Create or Paste added: in `now`, not in the table summarised as `before`
// (tableSummary()); 0 when there is none.
int addedPartition(const DiskLayout &now, const QString &before);

} // namespace partwise
