#pragma once

// Moving, shrinking and growing partitions step by step, as a write journal says: a
// realignment's whole plan, or the Resize an Apply is running. Each partition goes through the
// journal's phases: its filesystem shrinks (every shrink before any data moves), the EBRs of a
// logical partition are placed, the data moves through the journaled mover (unless the start
// stays), the table points at the new place, and the filesystem's record of its own position
// is fixed, it grows if asked, and it is checked. An extended partition's steps only change the
// table. The journal is saved after every phase, so a run that is killed continues from where
// it stood.

#include "fs/journaledresize.h"
#include "ops/realignrunner.h"
#include "ops/writejournal.h"

namespace partwise {

// Runs every unfinished step of `journal.moves` (the journal is kept at `journalPath`), and
// leaves the journal file to the caller. When a filesystem's tool refused to shrink before
// anything was changed, `shrinkRefused` names the partition and the journal holds nothing to
// finish. Blocking.
// `planned`: the maps the plan read (a realignment run in the process that planned it).
RealignResult executeMoves(WriteJournal &journal, const QString &journalPath,
                           const RealignCallbacks &callbacks, const PlannedMaps *planned = nullptr);

// Where the filesystem tool's writes of move `move` in its present phase are journaled
// (fs/journaledresize.h): one record beside the job journal, tagged with the Apply's operation,
// the move and its phase, so a record left by a finished step is never applied to another.
RedoJournal moveStepRedo(const WriteJournal &journal, const QString &journalPath, int move,
                         const std::function<void(const QString &)> &log);

// A realignment's whole run: executeMoves(), then the journal goes once there is nothing left
// to finish (every move done, or a refused shrink that changed nothing).
RealignResult runRealignmentJournal(WriteJournal &journal, const QString &journalPath,
                                    const RealignCallbacks &callbacks,
                                    const PlannedMaps *planned = nullptr);

} // namespace partwise
