#pragma once

#include <QString>

#include <cstdint>

namespace partwise::move {

struct MoveProgress
{
    enum class Phase { Copying, Verifying };

    Phase phase = Phase::Copying;
    std::uint64_t bytesDone = 0;  // of this phase, including work done before a resume
    std::uint64_t bytesTotal = 0; // of this phase
    double bytesPerSecond = 0;    // measured over this run
    double secondsLeft = -1;      // for this phase; negative while unknown
};

struct MoveOutcome
{
    enum class Status {
        Completed,    // the data is at the destination (and verified, if asked)
        Cancelled,    // stopped on request at a chunk boundary; resumable
        IoError,      // stopped by an I/O error at a consistent point; resumable
        VerifyFailed, // copied, but the destination reads back differently
        Refused,      // nothing was written (bad request, read-only target, journal exists...)
    };

    Status status = Status::Refused;
    QString message;     // one or two sentences a person can act on
    QString journalPath; // the journal to resume from, when resumable
    std::uint64_t bytesCopied = 0;
    double seconds = 0;

    bool ok() const { return status == Status::Completed; }
    bool resumable() const { return status == Status::Cancelled || status == Status::IoError; }
};

} // namespace partwise::move
