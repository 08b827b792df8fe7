#pragma once

#include "ops/realignrunner.h"

namespace partwise {

// Finishes a write job that was interrupted (killed, power cut, I/O error, cancelled): a
// realignment, or an Apply with the operations it had not yet run. Refuses a journal that does
// not check out, saying what is left to do by hand. Blocking.
RealignResult resumeWriteJob(const QString &target, const QString &journalPath,
                             const RealignCallbacks &callbacks = {});

} // namespace partwise
