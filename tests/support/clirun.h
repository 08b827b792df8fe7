// Runs partwise-cli as a black box and parses what it printed.
#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace pwtest {

struct CliResult
{
    bool started = false;
    bool crashed = false; // killed by a signal (segfault, abort) or timed out
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    bool jsonValid = false; // stdout parsed as one JSON object
    QJsonObject json;
    QString jsonError;

    QJsonArray devices() const { return json.value(QStringLiteral("devices")).toArray(); }
    // The device whose "path" is `path` (as given or canonical); empty object if none.
    QJsonObject device(const QString &path) const;
    // One line summary for failure messages.
    QString describe() const;
};

// The partwise-cli binary: PARTWISE_CLI_PATH from the environment, or the path given.
void setCliPath(const QString &path);
QString cliPath();

CliResult runCli(const QStringList &args, int timeoutMs = 120000);

// Runs partwise-cli and sends it SIGKILL once `delayMs` have passed; returns whether it was
// killed (else `exitCode` is its exit code, -1 after a crash). Its output goes to the test's
// stderr.
bool runCliKilledAfter(const QStringList &args, qint64 delayMs, int *exitCode);

// The same, with the delay counted from the first line of its standard output that contains
// `mark` (a step it logs as it starts), so the kill lands inside that step however fast the
// machine runs the steps before it. Not killed when it ends before.
bool runCliKilledAfterLine(const QStringList &args, const QByteArray &mark, qint64 delayMs,
                           int *exitCode);

// The partition with "number" n in a device object; empty object if none.
QJsonObject partitionByNumber(const QJsonObject &device, int number);

} // namespace pwtest
