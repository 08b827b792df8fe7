#include "cli/terminalprogress.h"

#include "base/humansize.h"

#include <algorithm>

namespace partwise {

void drawStepProgress(QTextStream &err, ProgressThrottle &throttle, const StepProgress &p)
{
    const bool ended = p.bytesDone >= p.bytesTotal;
    if (!throttle.due(ended))
        return;
    // A total planned before a step learned its real size may be passed: never show past 100%.
    const int percent =
        p.bytesTotal ? int(std::min<quint64>(100, 100 * p.bytesDone / p.bytesTotal)) : 100;
    err << QStringLiteral("\r  [%1/%2] partition %3 %4: %5% of %6, %7/s, %8 s left   ")
               .arg(p.index + 1)
               .arg(p.count)
               .arg(p.partition)
               .arg(p.step)
               .arg(percent)
               .arg(humanSize(qint64(p.bytesTotal)), humanSize(qint64(p.bytesPerSecond)))
               .arg(qint64(p.secondsLeft));
    if (ended)
        err << "\n";
    err.flush();
}

} // namespace partwise
