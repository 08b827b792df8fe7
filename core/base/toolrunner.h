#pragma once

#include <QString>
#include <QStringList>

namespace partwise {

// The outcome of running one external program (mkfs, fsck, resize tools).
struct ToolResult
{
    bool ok = false;
    int exitCode = -1;
    QString command;     // the command line, for logs
    QString output;      // stdout and stderr, merged (stdout alone with ToolChannels::Separate)
    QString errorOutput; // stderr, with ToolChannels::Separate
    QString error;       // a sentence a person can act on when !ok

    // Outcomes decided without running a program (nothing to do, or refused beforehand).
    static ToolResult succeeded(const QString &output);
    static ToolResult failed(const QString &error);
};

// Finds a filesystem tool in PATH or the sbin folders (which a non-root PATH often lacks).
QString findTool(const QString &program);

// From now on every tool that is a script ("#!") is refused with an error instead of run: a
// root helper working for a user calls it first thing (a script may re-read its arguments as
// commands, as xfs_admin evals its label).
void runCompiledToolsOnly();

// Runs a program without a shell and waits for it. A missing program gives a clear error
// naming the Debian package that provides it when `package` is set.
// Separate: for tools whose standard output is a report to parse (JSON) while warnings go to
// standard error and could land in the middle of it.
enum class ToolChannels { Merged, Separate };
ToolResult runTool(const QString &program, const QStringList &arguments,
                   const QString &package = QString(), int timeoutMs = 10 * 60 * 1000,
                   ToolChannels channels = ToolChannels::Merged);
// The same for a tool whose output file comes from data a user controls: it writes no file
// past `maxFileBytes` (its writes beyond fail), so root's disk is never filled with what the
// caller would refuse anyway.
ToolResult runToolWritingAtMost(const QString &program, const QStringList &arguments,
                                const QString &package, qint64 maxFileBytes);

// The same, writing `input` to the program's standard input: how a secret (a LUKS
// passphrase) reaches a tool without ever being on a command line.
ToolResult runToolWithInput(const QString &program, const QStringList &arguments,
                            const QString &package, const QByteArray &input,
                            int timeoutMs = 10 * 60 * 1000);

} // namespace partwise
