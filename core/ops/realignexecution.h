#pragma once

// Carrying out a realignment step by step, as its journal says. Each partition goes through the
// journal's phases: its filesystem shrinks (every shrink before any data moves), the EBRs of a
// logical partition are placed, the data moves through the journaled mover, the table points at
// the new place, and the filesystem's record of its own position is fixed and checked. An
// extended partition's steps only change the table. The journal is saved after every phase, so
// a run that is killed continues from where it stood.

#include "ops/realignjournal.h"
#include "ops/realignrunner.h"

// Runs every unfinished step of `journal` (kept at `journalPath`). Blocking.
RealignResult executeRealignment(RealignJournal &journal, const QString &journalPath,
                                 const RealignCallbacks &callbacks);
