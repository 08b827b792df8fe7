// Which code opened a disk by its name while partwise-cli ran: strace -f -k records every
// open with its stack, and each open of the name is attributed to the first frame above libc.
#pragma once

#include "toolrun.h"

#include <QString>
#include <QStringList>

namespace pwtest {

struct OpenTrace
{
    ToolResult run;      // strace's own result (the CLI's exit code)
    QStringList callers; // one per successful open of the disk's name, its caller's frame

    // The callers that are not libparted (which resolves and opens any name it is given itself).
    QStringList outsideLibparted() const;
};

// Runs partwise-cli `args` under strace, writing the log to `logPath`, and collects the opens
// of `disk` by that name. run.started is false when strace is missing.
OpenTrace traceOpensByName(const QStringList &args, const QString &disk, const QString &logPath,
                           const QByteArray &input = {});

} // namespace pwtest
