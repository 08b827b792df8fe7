#pragma once

// Carrying out a copy plan (copyplan.h), journaled so that `partwise-cli resume TARGET` (or the
// window at start-up) finishes a copy killed at any instant. The source is only ever read, so
// copying a chunk again is harmless; the target carries no partition table until every byte is
// copied and verified, so a copy cut short never looks complete.

#include "ops/copyjournal.h"
#include "ops/copyplan.h"

#include <QStringList>

#include <atomic>
#include <functional>

namespace partwise {

struct CopyProgress
{
    enum class Step { Preparing, Copying, Verifying, Finishing };

    int partitionIndex = 0; // 0-based, in plan.partitions
    int partitionCount = 0;
    int partition = 0; // the source partition's number
    Step stepKind = Step::Copying;
    QString step; // "copying", "verifying", ...: English, for logs and the CLI
    quint64 bytesDone = 0, bytesTotal = 0; // over the whole copy
    double bytesPerSecond = 0, secondsLeft = 0;
};

struct CopyCallbacks
{
    std::function<void(const QString &)> log;
    std::function<void(const CopyProgress &)> progress;
    const std::atomic<bool> *cancel = nullptr;
};

struct CopyResult
{
    bool ok = false;
    bool resumable = false; // stopped at a point `resume` continues from
    QString error;
    QString journalPath;
    QString backupFolder; // the target's table as it was before
    QStringList checks;   // "partition 2 (ext4): clean", one per filesystem copied
};

// Runs a plan that plan.ok(): refuses a busy target or a source mounted read-write, backs the
// target's table up, clears it, copies and verifies each partition's data, writes the new table
// and the boot code, then fixes what each filesystem records of its start, grows or recreates
// what the plan says, gives new ids when asked, and checks each filesystem read-only. Blocking.
CopyResult runCopy(const PreparedCopy &prepared, const CopyOptions &options,
                   const CopyCallbacks &callbacks = {});

// Finishes the copy the journal describes. The source must still be there, unchanged.
CopyResult resumeCopy(const QString &target, const QString &journalPath,
                      const CopyCallbacks &callbacks = {});

} // namespace partwise
