#pragma once

#include "cli/copyparams.h"
#include "cli/exitstatus.h"

#include <QTextStream>

#include <functional>

namespace partwise {

struct CopyCommandOptions
{
    CopyParams params;
    bool dryRun = false;
    bool assumeYes = false;
    // Unmount (and swap off) the source's partitions and the target's first, so the plan is
    // made of the disks as the copy finds them; the source's are mounted back afterwards. A
    // dry run unmounts nothing.
    bool unmount = false;
};

// `partwise-cli copy`: prints the plan (old → new place of each partition, bytes, time, what is
// refused and why, what it does to booting), asks unless --yes, and runs it with progress on
// `err`. 0 done (or a dry run of a plan that can run), 1 refused or failed, 2 unreadable input.
int runCopyCommand(const CopyCommandOptions &options, QTextStream &out, QTextStream &err,
                   const std::function<bool(const QString &)> &confirm);

// `partwise-cli resume` for a copy: true (and `*status` set) when `target` has a copy journal
// (or `journalPath` is one), false when resume is about something else.
bool resumeCopyCommand(const QString &target, const QString &journalPath, QTextStream &out,
                       QTextStream &err, int *status);

} // namespace partwise
