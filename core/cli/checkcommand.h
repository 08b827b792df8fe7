#pragma once

#include "align/alignmentpolicy.h"
#include "cli/exitstatus.h"

#include <QStringList>
#include <QTextStream>

namespace partwise {

struct CheckOptions
{
    QStringList targets; // empty: every disk on the machine
    AlignmentPolicy policy;
    qint64 forcedSectorSize = 0;
    bool json = false;
};

// `partwise-cli check`: reads each target, prints a table or the contract's JSON to `out` and
// problems to `err`. Returns 0 (nothing misaligned), 1 (something misaligned) or 2 (a target
// could not be read). Never writes to any target.
int runCheck(const CheckOptions &options, QTextStream &out, QTextStream &err);

} // namespace partwise
