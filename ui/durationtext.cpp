#include "durationtext.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

QString durationText(double seconds)
{
    // The realignment wizard's words, where the catalogue has them.
    const qint64 s = std::max<qint64>(1, qint64(std::ceil(seconds)));
    if (s < 60)
        return QCoreApplication::translate("RealignWizard", "%1 s").arg(s);
    if (s < 3600)
        return QCoreApplication::translate("RealignWizard", "%1 min %2 s").arg(s / 60).arg(s % 60);
    return QCoreApplication::translate("RealignWizard", "%1 h %2 min")
        .arg(s / 3600)
        .arg((s % 3600) / 60);
}
