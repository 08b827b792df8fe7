#pragma once

// The one progress line partwise-cli's long jobs (realign, resume, copy) draw on standard error:
// "[2/5] partition 3 copying: 40% of 1.2 GiB, 95.0 MiB/s, 12 s left", redrawn in place.

#include "base/progressthrottle.h"

#include <QString>
#include <QTextStream>

namespace partwise {

struct StepProgress
{
    int index = 0, count = 0; // 0-based step of how many
    int partition = 0;
    QString step;
    quint64 bytesDone = 0, bytesTotal = 0;
    double bytesPerSecond = 0, secondsLeft = 0;
};

// Draws `p` when `throttle` says it is due (always at the end of a step), ending the line there.
void drawStepProgress(QTextStream &err, ProgressThrottle &throttle, const StepProgress &p);

} // namespace partwise
