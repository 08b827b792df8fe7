#pragma once

#include "cli/exitstatus.h"
#include "ops/applyrunner.h"

#include <QTextStream>

#include <functional>

namespace partwise {

struct ApplyCommandOptions
{
    QString planPath;
    QString target;
    bool assumeYes = false;
    bool unmount = false; // --unmount: release what the plan touches first, mount it back after
    ApplyOptions apply;
};

// `partwise-cli apply PLAN TARGET`: shows the plan and the resulting layout, asks (unless
// --yes), then applies it. `confirm` asks the person; returns the contract's exit status.
int runApplyCommand(const ApplyCommandOptions &options, QTextStream &out, QTextStream &err,
                    const std::function<bool(const QString &question)> &confirm);

struct RestoreCommandOptions
{
    QString backupFolder;
    QString target;
    QString journalPath; // --journal: a job's journal kept elsewhere than the default
    bool assumeYes = false;
};

// `partwise-cli restore BACKUP TARGET`: refuses what checkTableRestore() refuses, says what the
// restore changes, asks (unless --yes; no terminal and no --yes writes nothing), then writes.
int runRestoreCommand(const RestoreCommandOptions &options, QTextStream &out, QTextStream &err,
                      const std::function<bool(const QString &question)> &confirm);

} // namespace partwise
