#include "MoveMessages.h"

#include <cstring>

namespace partwise::move {

QString formatSize(std::uint64_t bytes)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024)
        return QStringLiteral("%1 bytes").arg(bytes);
    double value = static_cast<double>(bytes) / 1024;
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    // Whole numbers stay whole ("8 MiB"), others get one decimal ("1.5 GiB").
    const bool whole = value == static_cast<double>(static_cast<std::uint64_t>(value));
    return QStringLiteral("%1 %2").arg(whole ? QString::number(static_cast<std::uint64_t>(value))
                                             : QString::number(value, 'f', 1),
                                       QLatin1String(units[unit]));
}

QString errorText(int errorCode)
{
    return QString::fromLocal8Bit(std::strerror(errorCode));
}

QString noMemoryForResume(std::uint64_t bufferBytes, const QString &resumeCommand)
{
    return QStringLiteral("Not enough memory for a %1 buffer. Nothing was changed; run `%2` with "
                          "more memory free.")
        .arg(formatSize(bufferBytes), resumeCommand);
}

QString journalUnreadable(const QString &journalPath, int errorCode, const QString &resumeCommand)
{
    return QStringLiteral("Reading the move journal %1 failed: %2. Nothing was changed; run `%3` "
                          "once it is readable.")
        .arg(journalPath, errorText(errorCode), resumeCommand);
}

} // namespace partwise::move
