#include "movemessages.h"

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

QString sourceUnreadable(std::uint64_t length, std::uint64_t offset, const QString &devicePath,
                         int errorCode, const QString &resumeCommand)
{
    return QStringLiteral("Reading %1 at byte %2 of %3 failed: %4. The move is paused; run `%5` "
                          "once the disk is readable.")
        .arg(formatSize(length))
        .arg(offset)
        .arg(devicePath, errorText(errorCode), resumeCommand);
}

QString destinationUnwritable(std::uint64_t length, std::uint64_t offset, const QString &devicePath,
                              int errorCode, const QString &resumeCommand)
{
    return QStringLiteral("Writing %1 at byte %2 of %3 failed: %4. The move is paused; run `%5` "
                          "once the disk is writable.")
        .arg(formatSize(length))
        .arg(offset)
        .arg(devicePath, errorText(errorCode), resumeCommand);
}

QString journalUnwritable(const QString &journalPath, int errorCode, const QString &resumeCommand)
{
    return QStringLiteral("Writing the move journal %1 failed: %2. The move is paused; make room "
                          "or fix that disk, then run `%3`.")
        .arg(journalPath, errorText(errorCode), resumeCommand);
}

QString pausedPartWay(std::uint64_t done, std::uint64_t total, const QString &resumeCommand)
{
    return QStringLiteral("The move was paused after %1 of %2. Run `%3` to finish it; until then "
                          "the data is not where the partition table says.")
        .arg(formatSize(done), formatSize(total), resumeCommand);
}

QString noMemoryToContinue(std::uint64_t bufferBytes, const QString &resumeCommand)
{
    return QStringLiteral("Not enough memory for a %1 buffer. Run `%2` to finish the move.")
        .arg(formatSize(bufferBytes), resumeCommand);
}

} // namespace partwise::move
