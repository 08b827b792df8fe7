// Talks to `partwise-cli serve` as the window will: a request per line, answers and
// notifications read back as they come.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>

#include <functional>

namespace pwtest {

// What an answer line holds: its result, its error code (0: none), and itself, shortened, for
// a failure message.
QJsonObject resultOf(const QJsonObject &answer);
int errorCodeOf(const QJsonObject &answer);
QString describe(const QJsonObject &answer);
// A Windows XP practice disk (128 MiB) made by `partwise-cli practice` in `folder`; empty when
// it could not be made.
QString makePracticeImage(const QString &folder, const QString &name);

class ServeClient
{
public:
    // `inChild` runs in the helper's process between fork and exec (async-signal-safe calls only):
    // the state a caller of pkexec leaves to the helper.
    explicit ServeClient(
        const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment(),
        const std::function<void()> &inChild = {});
    // The helper's process id while it runs.
    qint64 processId() const { return m_process.processId(); }
    int exitCode() const { return m_process.exitCode(); }
    ~ServeClient();

    bool started() const { return m_started; }
    bool running() const { return m_process.state() == QProcess::Running; }

    // Sends a request with a fresh id and returns the id.
    int send(const QString &method, const QJsonObject &params = {});
    // Sends raw bytes followed by a newline.
    void sendRaw(const QByteArray &line);
    // The answer to request `id` (the whole line), waiting up to `timeoutMs`; empty on timeout.
    QJsonObject answer(int id, int timeoutMs = 120000);
    // Convenience: send, then wait for the answer.
    QJsonObject call(const QString &method, const QJsonObject &params = {}, int timeoutMs = 120000);
    // Every line read so far that was not an answer (notifications), and the answers with a
    // null id (unreadable lines).
    const QList<QJsonObject> &notifications() const { return m_notifications; }
    const QList<QJsonObject> &nullIdAnswers() const { return m_nullId; }
    // Waits for the first notification `method` for request `id`.
    bool waitForNotification(const QString &method, int id, int timeoutMs = 60000);
    // Closes the helper's input (the connection drops) and waits for it to exit.
    bool closeAndWait(int timeoutMs = 120000);
    QByteArray standardError() { return m_process.readAllStandardError(); }

private:
    void readLines(int timeoutMs);

    QProcess m_process;
    bool m_started = false;
    int m_nextId = 1;
    QByteArray m_buffer;
    QMap<int, QJsonObject> m_answers;
    QList<QJsonObject> m_notifications;
    QList<QJsonObject> m_nullId;
};

} // namespace pwtest
