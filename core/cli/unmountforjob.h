#pragma once

// `--unmount` on the command line (apply, realign, copy): release what the job touches before
// it runs, and put it back after, saying each step on the terminal.

#include "device/releasepartitions.h"

#include <QTextStream>

namespace partwise {

// Unmounts (and swaps off) `numbers` of `target` (empty: every partition). False, with the
// reason naming what holds it on `err`, when something stays busy; then nothing was changed.
bool releaseForJob(const QString &target, const QList<int> &numbers, QTextStream &out,
                   QTextStream &err, QList<ReleasedPartition> *released);

// After the job: mounts back what was released, unless the job stopped where `resume` must
// finish it first (then says how to mount it back by hand afterwards). False when something
// could not be put back.
bool restoreAfterJob(const QList<ReleasedPartition> &released, bool stoppedMidway, QTextStream &out,
                     QTextStream &err);

} // namespace partwise
