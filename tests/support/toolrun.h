// Runs an external tool (sfdisk, parted, blkid, ...) and collects its result.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace pwtest {

struct ToolResult
{
    bool started = false; // false: the program could not be run at all
    bool crashed = false; // killed by a signal or timed out
    int exitCode = -1;
    QByteArray out;
    QByteArray err;

    bool ok() const { return started && !crashed && exitCode == 0; }
    // "program args: exit N: stderr" for failure messages.
    QString describe() const;
    QString command;
};

// Runs program with args, feeding stdinData; waits at most timeoutMs.
ToolResult runTool(const QString &program, const QStringList &args,
                   const QByteArray &stdinData = {}, int timeoutMs = 120000);

} // namespace pwtest
