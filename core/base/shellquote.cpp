#include "base/shellquote.h"

#include <QRegularExpression>

namespace partwise {

QString shellQuoted(const QString &word)
{
    // Plain words stay readable; anything else goes in single quotes, inside which only the
    // single quote itself needs care ('\'' ends the quote, adds one, and quotes again).
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_@%+=:,./-]"));
    if (!word.isEmpty() && !word.contains(unsafe))
        return word;
    QString escaped = word;
    escaped.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + escaped + QLatin1Char('\'');
}

} // namespace partwise
