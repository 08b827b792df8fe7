#include "align/alignmentpolicy.h"

#include <QRegularExpression>

namespace partwise {

QString AlignmentPolicy::grainProblem(qint64 bytes)
{
    if (bytes >= kMinGrain && bytes <= kMaxGrain && bytes % kMinGrain == 0)
        return {};
    return QStringLiteral("a grain is a multiple of %1 bytes from %1 bytes to %2 bytes (1 GiB), "
                          "not %3 bytes.")
        .arg(kMinGrain)
        .arg(kMaxGrain)
        .arg(bytes);
}

std::optional<qint64> parseByteSize(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d*)\\s*([kmg]?)(i?b)?\\s*$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto match = re.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    // A bare unit ("mib", "4k" aside) means one of it: --grain mib.
    if (match.captured(1).isEmpty() && match.captured(2).isEmpty())
        return std::nullopt;
    bool ok = true;
    qint64 value = match.captured(1).isEmpty() ? 1 : match.captured(1).toLongLong(&ok);
    if (!ok || value <= 0)
        return std::nullopt;
    const QString suffix = match.captured(2).toLower();
    const int shift = suffix == QLatin1String("k")   ? 10
                      : suffix == QLatin1String("m") ? 20
                      : suffix == QLatin1String("g") ? 30
                                                     : 0;
    if (value > (std::numeric_limits<qint64>::max() >> shift))
        return std::nullopt;
    return value << shift;
}

} // namespace partwise
