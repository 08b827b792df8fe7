#pragma once

// What a Paste does to booting. The pasted partition is a copy of its source at a new start, so
// the loaders its own sectors hold (a boot sector's GRUB, a recorded start) are judged as a
// realignment judges a move of them (boot/bootimpact.h), from the source disk's inventory; the
// source disk keeps booting as it did, so what its MBR or Windows' boot menu points at is not
// the paste's concern. Apply says it before anything is written and, like a move that breaks a
// loader, runs it only when accepted (--accept-boot-change).

#include "ops/operation.h"
#include "ops/operationboot.h"

namespace partwise {

// Adds each paste's fix-ups and breaks ("partition N: …", N the new partition on `target`) to
// `effect`. `pastes` come from previewOperations(); reads each source disk (read-only).
void addPasteBootEffects(const QString &target, const QList<Operation> &operations,
                         const QList<PreviewMove> &pastes, OperationsBootEffect *effect);

// The same from an inventory already read: what partition `sourceNumber` of it holds, copied to
// `paste` (number, new start and length on `target`).
void describePasteBoot(const BootInventory &source, int sourceNumber, const QString &target,
                       const PreviewMove &paste, OperationsBootEffect *effect);

} // namespace partwise
