#include "clirun.h"

#include "toolrun.h"

#include <QFileInfo>
#include <QProcess>

namespace pwtest {

namespace {
QString g_cliPath;
}

void setCliPath(const QString &path)
{
    g_cliPath = path;
}

QString cliPath()
{
    const QString env = qEnvironmentVariable("PARTWISE_CLI_PATH");
    return env.isEmpty() ? g_cliPath : env;
}

QJsonObject CliResult::device(const QString &path) const
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    for (const QJsonValue v : devices()) {
        const QString p = v.toObject().value(QStringLiteral("path")).toString();
        if (p == path || (!canonical.isEmpty() && QFileInfo(p).canonicalFilePath() == canonical))
            return v.toObject();
    }
    return {};
}

QString CliResult::describe() const
{
    return QStringLiteral("exit %1%2; stderr: %3; stdout: %4")
        .arg(exitCode)
        .arg(crashed ? QStringLiteral(" (crashed)") : QString())
        .arg(QString::fromUtf8(err).trimmed().left(600),
             QString::fromUtf8(out).trimmed().left(600));
}

CliResult runCli(const QStringList &args, int timeoutMs)
{
    const ToolResult r = runTool(cliPath(), args, {}, timeoutMs);
    CliResult c;
    c.started = r.started;
    c.crashed = r.crashed;
    c.exitCode = r.exitCode;
    c.out = r.out;
    c.err = r.err;
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
    c.jsonValid = pe.error == QJsonParseError::NoError && doc.isObject();
    c.json = doc.object();
    c.jsonError = pe.errorString();
    return c;
}

QJsonObject partitionByNumber(const QJsonObject &device, int number)
{
    for (const QJsonValue v : device.value(QStringLiteral("partitions")).toArray())
        if (v.toObject().value(QStringLiteral("number")).toInt() == number)
            return v.toObject();
    return {};
}

namespace {

// Waits `delayMs` for the started `p` to end, else sends it SIGKILL; whether it was killed.
bool killAfter(QProcess &p, qint64 delayMs, int *exitCode)
{
    if (p.waitForFinished(int(delayMs))) {
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        return false;
    }
    p.kill(); // SIGKILL
    p.waitForFinished(30000);
    return true;
}

} // namespace

bool runCliKilledAfter(const QStringList &args, qint64 delayMs, int *exitCode)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(cliPath(), args);
    *exitCode = -1;
    if (!p.waitForStarted(10000))
        return false;
    return killAfter(p, delayMs, exitCode);
}

bool runCliKilledAfterLine(const QStringList &args, const QByteArray &mark, qint64 delayMs,
                           int *exitCode)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(cliPath(), args);
    *exitCode = -1;
    if (!p.waitForStarted(10000))
        return false;
    QByteArray seen;
    while (!seen.contains(mark)) {
        if (p.state() == QProcess::NotRunning || !p.waitForReadyRead(120000)) {
            p.waitForFinished(30000);
            *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
            return false;
        }
        seen += p.readAllStandardOutput();
    }
    return killAfter(p, delayMs, exitCode);
}

} // namespace pwtest
