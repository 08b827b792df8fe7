#pragma once

// `partwise-cli probe`: asks, runs the timing probe (probe/sectorprobe.h) with progress, and
// prints and remembers its verdict as report/probereport.h says.

#include "cli/exitstatus.h"
#include "probe/sectorprobe.h"

#include <QString>
#include <QTextStream>

#include <functional>

namespace partwise {

struct ProbeCommandOptions
{
    QString target;
    bool json = false;
    bool assumeYes = false;
    SectorProbeOptions probe;
};

// Refuses (exit 2) unusable targets before asking, asks unless --yes (exit 1 when not
// confirmed), probes with progress on `err` (or to `options.probe.progress` when set), prints the
// result to `out`. Exit 0 once measured (penalty or not), 1 when cancelled or failed, 2 when
// refused.
int runProbeCommand(const ProbeCommandOptions &options, QTextStream &out, QTextStream &err,
                    const std::function<bool(const QString &)> &confirm);

} // namespace partwise
