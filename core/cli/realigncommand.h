#pragma once

#include "cli/exitstatus.h"
#include "ops/realignrunner.h"

#include <QTextStream>

#include <functional>

namespace partwise {

struct RealignCommandOptions
{
    QString target;
    RealignRequest request;
    RealignOptions realign;
    bool dryRun = false;
    bool assumeYes = false;
    bool acceptBootChange = false; // run a plan that stops a boot loader working
    bool unmount = false; // --unmount: release the disk's partitions first, mount them back after
};

// `partwise-cli realign`: shows the plan (old and new place of each partition, bytes to move,
// an estimate, what stays and why), asks unless --yes, runs it with progress on `err`.
int runRealignCommand(const RealignCommandOptions &options, QTextStream &out, QTextStream &err,
                      const std::function<bool(const QString &)> &confirm);

// `partwise-cli resume`.
int runResumeCommand(const QString &target, const QString &journalPath, QTextStream &out,
                     QTextStream &err);

} // namespace partwise
