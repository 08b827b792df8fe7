// What a power cut does to a job whose writes go through redo records (fs/journaledresize.h,
// ops/journaledtablecommit.h), for the power-cut suites of tests/ops: the job runs in a child
// that stops dead once a record is committed, and the test then lets some of that record's
// blocks reach the image, as a drive's cache would.
#pragma once

#include <QString>

#include <functional>

namespace pwtest {

constexpr int kStoppedAtCommit = 42;

using CutJob = std::function<bool(const std::function<void(const QString &)> &log)>;

// Runs `job` in a child that ends, without cleaning up, right after the `record`-th log line
// holding `marker` (followed by the record's path, which goes to the file `cutNote`). The
// child's exit status: kStoppedAtCommit when it was cut, 0 when the job finished, 2 on failure.
int runUntilCommit(const char *marker, int record, const QString &cutNote, const CutJob &job);

enum class Reach {
    None,       // none of the record's blocks reached the image
    FirstHalf,  // the first half (in offset order)
    AllButLast, // every block but the last
    RandomTorn, // a random part, one block torn at a 512-byte sector
    // Only the first block, garbled to zeros: a 512e drive's read-modify-write of a 4 KiB
    // physical sector cut short, which no rerun of a fix-up patching one sector can restore.
    FirstGarbled,
};

// Writes to `image` the part `reach` says of the record named in `cutNote`; *blocks gets its
// block count. False with *error when the record cannot be read.
bool reachImage(const QString &image, const QString &cutNote, Reach reach, quint32 seed,
                qint64 *blocks, QString *error);

const char *reachName(Reach reach);

} // namespace pwtest
