#pragma once

#include "align/alignmentpolicy.h"
#include "ops/operation.h"
#include "ops/realignrunner.h"
#include "ops/writejournal.h"
#include "table/partedsession.h"

#include <QList>
#include <QStringList>

#include <atomic>
#include <functional>

namespace partwise {

struct ApplyOptions
{
    AlignmentPolicy policy;
    qint64 forcedSectorSize = 0;
    QString backupRoot;    // empty: defaultBackupRoot()
    QString journalFolder; // where the journals of a disk are kept; empty: the default
    // Run a queue whose moves stop a boot loader working (ops/operationboot.h); without it
    // such a queue is refused before anything is written.
    bool acceptBootChange = false;
};

struct ApplyCallbacks
{
    std::function<void(const QString &)> log;
    std::function<void(int done, int total)> progress;
    // Within a long operation (a Resize's move, a Paste's copy): its bytes done and total,
    // speed and time left, in a realignment's terms (moveIndex: the operation's index).
    std::function<void(const RealignProgress &)> bytes;
    PartedSession::Resolver ask; // libparted's questions during Apply; empty: safe answers
    // Set from another thread: Apply stops before its next operation (the journal keeps the
    // rest for `resume`), and a move inside a resize stops at its next safe point.
    const std::atomic<bool> *cancel = nullptr;
};

struct ApplyResult
{
    bool ok = false;
    int completed = 0;      // operations fully applied
    bool resumable = false; // stopped where `partwise-cli resume` continues
    // Refused before anything was written because a partition it touches (or, for a table
    // change, anything on the disk) is mounted, swapped on or held: the window offers
    // "Unmount and Continue".
    bool inUse = false;
    QString error; // what failed, and in what state the disk is
    QString backupFolder;
    QString journalPath;
    QStringList log;
};

// Applies the queue to a disk or image. Before any write it validates the whole plan on
// libparted's in-memory copy and passes the checks every write job passes (writepreflight.h:
// writable, nothing in use, the filesystems to be resized clean, the table backed up). Then
// it runs each operation in order, journaled (writejournal.h) so that `partwise-cli resume`
// finishes the queue after a kill, and stops at the first failure. A Resize runs the same
// journaled steps as a realignment. Blocking: call it off the GUI thread.
ApplyResult applyOperations(const QString &target, const QList<Operation> &operations,
                            const ApplyOptions &options, const ApplyCallbacks &callbacks = {});

// Runs the operations `journal` records from its next one on (resume). Blocking.
ApplyResult continueApply(WriteJournal &journal, const QString &journalPath,
                          const ApplyCallbacks &callbacks);

} // namespace partwise
