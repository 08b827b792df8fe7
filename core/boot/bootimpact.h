#pragma once

// What moving one partition does to booting, from a disk's BootInventory: nothing, something
// Partwise fixes after the data has moved (boot sectors' recorded starts, GRUB's pointers to a
// moved BIOS boot partition), or something that stops working, in words a person can act on
// and with the command that repairs it. The planner, the wizard and the info panel show this
// before anything is written; `realign` needs --accept-boot-change when a move breaks a loader.

#include "boot/bootinventory.h"

namespace partwise {

struct BootEffect
{
    enum class Kind { None, Fixed, Breaks };
    Kind kind = Kind::None;
    QStringList fixes;   // what Partwise rewrites after the move, one sentence each
    QStringList breaks;  // what stops working, one sentence each
    QStringList repairs; // the commands that repair what breaks, in the order to run them
};

QString bootEffectKindName(BootEffect::Kind kind); // "none", "fixed", "breaks"

// Partition `number` moving from `oldStart` to `newStart`, `newLength` sectors long (logical
// sectors of the disk).
BootEffect bootEffectOfMove(const BootInventory &inventory, int number, qint64 oldStart,
                            qint64 newStart, qint64 newLength);

// The effect as plans print it (after "boot:" and "boot BREAKS:"): each fix as "partition N:
// …" appended to `fixes`; what breaks as one such line, with the commands that repair it, to
// `breaks`.
void describeBootEffect(const BootEffect &effect, int number, QStringList *fixes,
                        QStringList *breaks);

} // namespace partwise
