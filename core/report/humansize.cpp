#include "report/humansize.h"

#include <QLocale>

QString humanSize(qint64 bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 5) {
        value /= 1024.0;
        ++unit;
    }
    if (unit == 0)
        return QStringLiteral("%1 B").arg(bytes);
    const bool whole = value == double(qint64(value));
    return QStringLiteral("%1 %2")
        .arg(value, 0, 'f', whole ? 0 : 1)
        .arg(QLatin1String(units[unit]));
}

QString groupedNumber(qint64 value)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(value);
}
