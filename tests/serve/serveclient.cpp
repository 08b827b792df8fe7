#include "serveclient.h"

#include "clirun.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QJsonDocument>

namespace pwtest {

QJsonObject resultOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("result")).toObject();
}

int errorCodeOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt();
}

QString describe(const QJsonObject &answer)
{
    return QString::fromUtf8(QJsonDocument(answer).toJson(QJsonDocument::Compact)).left(2000);
}

QString makePracticeImage(const QString &folder, const QString &name)
{
    const QString image = QDir(folder).filePath(name);
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("windows-xp"), image,
                                   QStringLiteral("--size"), QStringLiteral("128M")});
    return made.exitCode == 0 ? image : QString();
}

ServeClient::ServeClient(const QProcessEnvironment &environment,
                         const std::function<void()> &inChild)
{
    m_process.setProcessEnvironment(environment);
    if (inChild)
        m_process.setChildProcessModifier(inChild);
    m_process.start(cliPath(), {QStringLiteral("serve")});
    m_started = m_process.waitForStarted();
}

ServeClient::~ServeClient()
{
    if (running())
        closeAndWait(60000);
}

int ServeClient::send(const QString &method, const QJsonObject &params)
{
    const int id = m_nextId++;
    QJsonObject request{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("id"), id},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        request[QStringLiteral("params")] = params;
    sendRaw(QJsonDocument(request).toJson(QJsonDocument::Compact));
    return id;
}

void ServeClient::sendRaw(const QByteArray &line)
{
    m_process.write(line + '\n');
    m_process.waitForBytesWritten(10000);
}

void ServeClient::readLines(int timeoutMs)
{
    m_process.waitForReadyRead(timeoutMs);
    m_buffer += m_process.readAllStandardOutput();
    for (qsizetype end = m_buffer.indexOf('\n'); end >= 0; end = m_buffer.indexOf('\n')) {
        const QJsonObject line = QJsonDocument::fromJson(m_buffer.left(end)).object();
        m_buffer.remove(0, end + 1);
        const QJsonValue id = line.value(QStringLiteral("id"));
        if (id.isDouble())
            m_answers.insert(id.toInt(), line);
        else if (id.isNull() && !line.contains(QStringLiteral("method")))
            m_nullId << line;
        else
            m_notifications << line;
    }
}

QJsonObject ServeClient::answer(int id, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!m_answers.contains(id) && !deadline.hasExpired() &&
           (running() || m_process.bytesAvailable() > 0))
        readLines(int(std::min<qint64>(deadline.remainingTime(), 1000)));
    return m_answers.take(id);
}

QJsonObject ServeClient::call(const QString &method, const QJsonObject &params, int timeoutMs)
{
    return answer(send(method, params), timeoutMs);
}

bool ServeClient::waitForNotification(const QString &method, int id, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        for (const QJsonObject &n : m_notifications)
            if (n.value(QStringLiteral("method")).toString() == method &&
                n.value(QStringLiteral("params")).toObject().value(QStringLiteral("id")).toInt() ==
                    id)
                return true;
        if (deadline.hasExpired() || !running())
            return false;
        readLines(int(std::min<qint64>(deadline.remainingTime(), 1000)));
    }
}

bool ServeClient::closeAndWait(int timeoutMs)
{
    m_process.closeWriteChannel();
    const bool exited = m_process.waitForFinished(timeoutMs);
    m_buffer += m_process.readAllStandardOutput();
    return exited && m_process.exitStatus() == QProcess::NormalExit;
}

} // namespace pwtest
