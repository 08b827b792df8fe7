// `partwise-cli watch --json` run beside a test: its event lines, waited for one by one.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QStringList>

#include <functional>

namespace pwtest {

class WatchProcess
{
public:
    // Starts `partwise-cli watch --json --seconds N` with `extra` arguments and waits (up to 30
    // s) for its "listening" line; ok() says whether it came.
    explicit WatchProcess(const QStringList &extra = {}, int seconds = 300);
    ~WatchProcess(); // closes its input: watch ends

    bool ok() const { return m_listening; }
    QString error() const { return m_error; }
    QJsonObject listening() const { return m_first; }
    // Waits (up to `timeoutMs`) for an event line `matches`; every line read is kept in lines().
    QJsonObject waitFor(const std::function<bool(const QJsonObject &)> &matches,
                        int timeoutMs = 30000);
    QList<QJsonObject> lines() const { return m_lines; }
    QString transcript() const;

private:
    bool readLines();

    QProcess m_process;
    QList<QJsonObject> m_lines;
    QByteArray m_pending;
    int m_seen = 0;
    bool m_listening = false;
    QJsonObject m_first;
    QString m_error;
};

// A matcher: the event `kind` ("added", "removed", "changed") for `path`.
std::function<bool(const QJsonObject &)> watchEvent(const QString &kind, const QString &path);

} // namespace pwtest
