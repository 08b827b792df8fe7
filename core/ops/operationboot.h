#pragma once

// What an Apply does to booting: each Resize that gives a partition a new start
// (PreviewResult::moves) judged against what boots from the disk now, as a realignment's moves
// are (boot/bootimpact.h). The plan (`apply`, the window's Apply question) says it before
// anything is written; the moves run the realignment's fix-ups afterwards
// (realignexecution.h); and a queue that stops a loader working runs only when the person
// accepted that (--accept-boot-change, serve's accept_boot_change, the window's checkbox).

#include "boot/bootinventory.h"
#include "ops/operationpreview.h"

#include <QStringList>

namespace partwise {

struct OperationsBootEffect
{
    QStringList fixes;  // what Partwise rewrites after a move: "partition 2: …"
    QStringList breaks; // what stops working, with the commands that repair it
    QStringList notes;  // what could not be read to tell
    bool breaksBoot() const { return !breaks.isEmpty(); }
    // "boot: …" and "boot BREAKS: …" lines, as a realignment's plan prints them.
    QStringList lines() const;
};

// `before` is the disk `inventory` was read from. Partitions are followed by their start, since
// the operations before a move may renumber them; a partition the queue made holds no loader.
OperationsBootEffect bootEffectOfOperations(const BootInventory &inventory,
                                            const DiskLayout &before,
                                            const QList<PreviewMove> &moves);

// The same, reading what boots from `before`'s disk first (and this machine's firmware entries
// for its own disks); nothing is read when nothing moves.
OperationsBootEffect readBootEffectOfOperations(const DiskLayout &before,
                                                const QList<PreviewMove> &moves);

} // namespace partwise
