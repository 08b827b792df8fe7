#include "base/toolrunner.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>

#include <atomic>
#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

namespace partwise {

ToolResult ToolResult::succeeded(const QString &output)
{
    ToolResult r;
    r.ok = true;
    r.exitCode = 0;
    r.output = output;
    return r;
}

ToolResult ToolResult::failed(const QString &error)
{
    ToolResult r;
    r.error = error;
    return r;
}

QString findTool(const QString &program)
{
    QString path = QStandardPaths::findExecutable(program);
    if (path.isEmpty())
        path = QStandardPaths::findExecutable(program,
                                              {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin"),
                                               QStringLiteral("/usr/bin"), QStringLiteral("/bin")});
    return path;
}

namespace {

std::atomic<bool> g_compiledOnly{false};

// A script reads its arguments again as the shell sees fit: xfs_admin, for one, evals its label.
// Root working for a user runs compiled programs only, so no byte of a request becomes a command.
bool isScript(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(2) == "#!";
}

ToolResult run(const QString &program, const QStringList &arguments, const QString &package,
               int timeoutMs, ToolChannels channels, const QByteArray *input,
               qint64 maxFileBytes = -1)
{
    ToolResult r;
    r.command = (QStringList{program} + arguments).join(QLatin1Char(' '));
    const QString path = findTool(program);
    if (path.isEmpty()) {
        r.error = package.isEmpty() ? QStringLiteral("%1 is not installed.").arg(program)
                                    : QStringLiteral("%1 is not installed; install the %2 package.")
                                          .arg(program, package);
        return r;
    }
    if (g_compiledOnly.load() && isScript(path)) {
        r.error = QStringLiteral("%1 is a script; Partwise runs no scripts as root.").arg(path);
        return r;
    }
    QProcess proc;
    proc.setProcessChannelMode(channels == ToolChannels::Merged ? QProcess::MergedChannels
                                                                : QProcess::SeparateChannels);
    // Tools must never wait for an answer on a terminal we don't have.
    if (!input)
        proc.setStandardInputFile(QProcess::nullDevice());
    // Their output is parsed ("minimum size of the filesystem: N"), so it must not come in the
    // user's language; UTF-8 keeps labels and paths intact.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("LANGUAGE"));
    proc.setProcessEnvironment(env);
    if (maxFileBytes >= 0)
        proc.setChildProcessModifier([maxFileBytes] {
            // A write past the limit fails (EFBIG) instead of killing the tool.
            const rlimit limit{rlim_t(maxFileBytes), rlim_t(maxFileBytes)};
            ::signal(SIGXFSZ, SIG_IGN);
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
    proc.start(path, arguments);
    if (input && proc.waitForStarted(timeoutMs)) {
        proc.write(*input);
        proc.closeWriteChannel();
    }
    if (!proc.waitForFinished(timeoutMs)) {
        proc.kill();
        proc.waitForFinished();
        r.output = QString::fromLocal8Bit(proc.readAll());
        r.error =
            QStringLiteral("%1 did not finish within %2 s.").arg(program).arg(timeoutMs / 1000);
        return r;
    }
    r.output = QString::fromLocal8Bit(proc.readAllStandardOutput());
    if (channels == ToolChannels::Separate)
        r.errorOutput = QString::fromLocal8Bit(proc.readAllStandardError());
    r.exitCode = proc.exitStatus() == QProcess::NormalExit ? proc.exitCode() : -1;
    r.ok = r.exitCode == 0;
    if (!r.ok)
        r.error = QStringLiteral("%1 failed (exit %2): %3")
                      .arg(program)
                      .arg(r.exitCode)
                      .arg((r.output + r.errorOutput).trimmed().section(QLatin1Char('\n'), -3));
    return r;
}

} // namespace

void runCompiledToolsOnly()
{
    g_compiledOnly.store(true);
}

ToolResult runTool(const QString &program, const QStringList &arguments, const QString &package,
                   int timeoutMs, ToolChannels channels)
{
    return run(program, arguments, package, timeoutMs, channels, nullptr);
}

ToolResult runToolWritingAtMost(const QString &program, const QStringList &arguments,
                                const QString &package, qint64 maxFileBytes)
{
    return run(program, arguments, package, 10 * 60 * 1000, ToolChannels::Merged, nullptr,
               maxFileBytes);
}

ToolResult runToolWithInput(const QString &program, const QStringList &arguments,
                            const QString &package, const QByteArray &input, int timeoutMs)
{
    return run(program, arguments, package, timeoutMs, ToolChannels::Merged, &input);
}

} // namespace partwise
