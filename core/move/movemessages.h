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

// Why a move paused part way, with the command that finishes it.
QString sourceUnreadable(std::uint64_t length, std::uint64_t offset, const QString &devicePath,
                         int errorCode, const QString &resumeCommand);
QString destinationUnwritable(std::uint64_t length, std::uint64_t offset, const QString &devicePath,
                              int errorCode, const QString &resumeCommand);
QString journalUnwritable(const QString &journalPath, int errorCode, const QString &resumeCommand);
QString pausedPartWay(std::uint64_t done, std::uint64_t total, const QString &resumeCommand);
QString noMemoryToContinue(std::uint64_t bufferBytes, const QString &resumeCommand);

} // namespace partwise::move
