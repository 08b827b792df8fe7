#include "base/humansize.h"

#include <QCoreApplication>
#include <QLocale>

namespace partwise {

namespace {

// The installed catalogue decides how numbers look: a German window shows "1,5 GiB" and
// "3.584", while partwise-cli, which loads no catalogue, keeps "1.5 GiB" and "3,584" for the
// scripts that read it.
QLocale numberLocale()
{
    //: Locale name used for numbers in sizes and byte counts (decimal point and digit
    //: grouping). Put the locale of this translation here, for example de_DE.
    return QLocale(QCoreApplication::translate("HumanSize", "en_US"));
}

QString unitText(int unit, const QString &number)
{
    switch (unit) {
    case 0:
        //: A size in bytes, as in "512 B".
        return QCoreApplication::translate("HumanSize", "%1 B").arg(number);
    case 1:
        return QCoreApplication::translate("HumanSize", "%1 KiB").arg(number);
    case 2:
        return QCoreApplication::translate("HumanSize", "%1 MiB").arg(number);
    case 3:
        return QCoreApplication::translate("HumanSize", "%1 GiB").arg(number);
    case 4:
        return QCoreApplication::translate("HumanSize", "%1 TiB").arg(number);
    default:
        break;
    }
    return QCoreApplication::translate("HumanSize", "%1 PiB").arg(number);
}

} // namespace

QString humanSize(qint64 bytes)
{
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 5) {
        value /= 1024.0;
        ++unit;
    }
    QLocale locale = numberLocale();
    locale.setNumberOptions(QLocale::OmitGroupSeparator);
    if (unit == 0)
        return unitText(unit, locale.toString(bytes));
    const bool whole = value == double(qint64(value));
    return unitText(unit, locale.toString(value, 'f', whole ? 0 : 1));
}

QString groupedNumber(qint64 value)
{
    return numberLocale().toString(value);
}

} // namespace partwise
