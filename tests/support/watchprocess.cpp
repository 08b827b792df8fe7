#include "watchprocess.h"

#include "buildsetting.h"

#include <QDeadlineTimer>
#include <QJsonDocument>

#include <algorithm>

namespace pwtest {

WatchProcess::WatchProcess(const QStringList &extra, int seconds)
{
    m_process.start(buildSetting("PARTWISE_CLI"),
                    QStringList{QStringLiteral("watch"), QStringLiteral("--json"),
                                QStringLiteral("--seconds"), QString::number(seconds)} +
                        extra);
    if (!m_process.waitForStarted(30000)) {
        m_error = m_process.errorString();
        return;
    }
    m_first = waitFor([](const QJsonObject &line) {
        return line.value(QStringLiteral("event")).toString() == QLatin1String("listening");
    });
    m_listening = !m_first.isEmpty();
    if (!m_listening)
        m_error = QStringLiteral("watch never said it listens: ") + transcript();
}

WatchProcess::~WatchProcess()
{
    m_process.closeWriteChannel();
    if (!m_process.waitForFinished(10000))
        m_process.kill();
    m_process.waitForFinished(5000);
}

bool WatchProcess::readLines()
{
    m_pending += m_process.readAllStandardOutput();
    bool any = false;
    int newline;
    while ((newline = m_pending.indexOf('\n')) >= 0) {
        const QByteArray line = m_pending.left(newline);
        m_pending.remove(0, newline + 1);
        m_lines << QJsonDocument::fromJson(line).object();
        any = true;
    }
    return any;
}

QJsonObject WatchProcess::waitFor(const std::function<bool(const QJsonObject &)> &matches,
                                  int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        while (m_seen < m_lines.size()) {
            const QJsonObject line = m_lines.at(m_seen++);
            if (matches(line))
                return line;
        }
        if (deadline.hasExpired() || m_process.state() == QProcess::NotRunning)
            return {};
        m_process.waitForReadyRead(int(std::clamp<qint64>(deadline.remainingTime(), 1, 500)));
        readLines();
    }
}

QString WatchProcess::transcript() const
{
    QStringList text;
    for (const QJsonObject &line : m_lines)
        text << QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact));
    return text.join(u'\n');
}

std::function<bool(const QJsonObject &)> watchEvent(const QString &kind, const QString &path)
{
    return [kind, path](const QJsonObject &line) {
        return line.value(QStringLiteral("event")).toString() == kind &&
               line.value(QStringLiteral("path")).toString() == path;
    };
}

} // namespace pwtest
