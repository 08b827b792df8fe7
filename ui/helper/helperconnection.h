#pragma once

// One running helper, `partwise-cli serve` (here, or on another machine over ssh), and the
// conversation with it (README, "The helper protocol"): a JSON-RPC request per line out, an
// answer or a notification per line back. Answers are matched to their request by id and
// handed to the callback given with it, on the GUI thread; notifications are a signal.
//
// The helper may die at any moment: it crashed, was killed, or the ssh connection dropped.
// Then every request still waiting is answered with an error, so nothing in the window waits
// for ever, and died() says what happened in a sentence. What comes back is trusted no more
// than a file: a line past kMaxLine bytes, or one that is not a JSON object, ends the
// connection as a helper that is not speaking the protocol.

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QStringList>

#include <functional>

// What came back for one request.
struct HelperReply
{
    QJsonObject result;
    QString error;    // empty on success; otherwise the sentence to show
    int code = 0;     // the helper's error code (README); 0 when the helper never answered
    QJsonObject data; // what a failed job left: "resumable", "journal"

    bool ok() const { return error.isEmpty(); }
    // The helper went away before it answered (crashed, killed, the connection dropped).
    bool lost() const { return !ok() && code == 0; }
};

class HelperConnection : public QObject
{
    Q_OBJECT

public:
    // How to start the helper, and whose disks it serves ("" for this machine).
    struct Command
    {
        QString program;
        QStringList arguments;
        QString machine;
        QString package; // the Debian package `program` comes with, named when it is missing
        bool overNetwork = false; // ssh: the connection, not only the helper, may drop
        // Runs with the window's effective user as its real and saved user too, so that it
        // can never take back rights the window gave up (the user's own helper).
        bool asEffectiveUser = false;
    };
    using Reply = std::function<void(const HelperReply &reply)>;

    static constexpr int kProtocol = 1;
    static constexpr qsizetype kMaxLine = 256 * 1024 * 1024;

    explicit HelperConnection(const Command &command, QObject *parent = nullptr);
    // Closes the helper's input (a job under way stops where `resume` can finish it) and
    // gives it a moment to exit before it is killed.
    ~HelperConnection() override;

    // Starts the helper and asks its version; ready() or died() follows.
    void start();
    bool isReady() const { return m_ready; }
    // It answered once: an end after that lost a connection; before it, one never came.
    bool wasEverReady() const { return m_everReady; }
    // The helper stopped (died() was sent); a new connection is needed.
    bool hasEnded() const { return m_dead; }
    QString machine() const { return m_command.machine; }
    const Command &command() const { return m_command; }
    // The helper's process (ssh, for another machine); 0 once it has ended.
    qint64 processId() const { return m_process.processId(); }
    // Sends a request; `reply` is called once, with the answer or with why there is none.
    // Returns the request's id, which its notifications carry.
    int call(const QString &method, const QJsonObject &params, const Reply &reply);

signals:
    void ready();
    void notification(const QString &method, const QJsonObject &params);
    void died(const QString &why);

private:
    void readLines();
    void handleLine(const QByteArray &line);
    void fail(const QString &why);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    QString describeExit(int exitCode, QProcess::ExitStatus status);
    QString speaker() const; // "The helper", or "The helper on host"

    Command m_command;
    QProcess m_process;
    QByteArray m_buffer;
    QByteArray m_stderrTail;
    QHash<int, Reply> m_waiting;
    int m_nextId = 1;
    bool m_everReady = false;
    bool m_ready = false;
    bool m_dead = false;
};
