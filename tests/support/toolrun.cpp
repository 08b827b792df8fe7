#include "toolrun.h"

#include <QProcess>

namespace pwtest {

QString ToolResult::describe() const
{
    if (!started)
        return QStringLiteral("%1: could not start").arg(command);
    if (crashed)
        return QStringLiteral("%1: crashed or timed out: %2").arg(command, QString::fromUtf8(err));
    return QStringLiteral("%1: exit %2: %3")
        .arg(command)
        .arg(exitCode)
        .arg(QString::fromUtf8(err).trimmed());
}

ToolResult runTool(const QString &program, const QStringList &args, const QByteArray &stdinData,
                   int timeoutMs)
{
    ToolResult r;
    r.command = (QStringList{program} + args).join(QLatin1Char(' '));
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return r;
    r.started = true;
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        r.crashed = true;
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    if (p.exitStatus() == QProcess::CrashExit)
        r.crashed = true;
    r.exitCode = p.exitCode();
    return r;
}

} // namespace pwtest
