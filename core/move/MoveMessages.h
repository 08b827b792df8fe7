#pragma once

#include <QString>

#include <cstdint>

namespace partwise::move {

// "8 MiB", "3 KiB", "1.5 GiB", "700 bytes": sizes as a person reads them in messages.
QString formatSize(std::uint64_t bytes);

// strerror() as a QString.
QString errorText(int errorCode);

// Why resume stopped before touching anything, with the command to run again.
QString noMemoryForResume(std::uint64_t bufferBytes, const QString &resumeCommand);
QString journalUnreadable(const QString &journalPath, int errorCode, const QString &resumeCommand);

} // namespace partwise::move
