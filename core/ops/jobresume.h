#pragma once

#include "ops/realignrunner.h"

namespace partwise {

// Finishes a write job that was interrupted (killed, power cut, I/O error, cancelled): a
// realignment, or an Apply with the operations it had not yet run. Refuses a journal that does
// not check out, saying what is left to do by hand. Blocking.
// `journalPath` when it holds a stopped job of `target` to offer to finish, or empty: no journal
// there, or one written for another disk that had `target`'s name (device/diskidentity.h). A
// journal too damaged to say is offered, for resume to say what is wrong with it.
QString interruptedWriteJournal(const QString &target, const QString &journalPath);

RealignResult resumeWriteJob(const QString &target, const QString &journalPath,
                             const RealignCallbacks &callbacks = {});

} // namespace partwise
