#pragma once

#include "align/alignmentpolicy.h"
#include "ops/operation.h"
#include "table/partedsession.h"

#include <QList>
#include <QStringList>

#include <functional>

struct ApplyOptions
{
    AlignmentPolicy policy;
    qint64 forcedSectorSize = 0;
    QString backupRoot;    // empty: defaultBackupRoot()
    QString journalFolder; // where moves of a disk keep their journals; empty: the default
};

struct ApplyCallbacks
{
    std::function<void(const QString &)> log;
    std::function<void(int done, int total)> progress;
    PartedSession::Resolver ask; // libparted's questions during Apply; empty: safe answers
};

struct ApplyResult
{
    bool ok = false;
    int completed = 0; // operations fully applied
    QString error;     // what failed, and in what state the disk is
    QString backupFolder;
    QStringList log;
};

// Applies the queue to a disk or image: validates the whole plan on libparted's in-memory copy,
// refuses busy partitions (saying what holds them), backs the table up, then runs each operation
// in order and stops at the first failure. Blocking: call it off the GUI thread.
ApplyResult applyOperations(const QString &target, const QList<Operation> &operations,
                            const ApplyOptions &options, const ApplyCallbacks &callbacks = {});
