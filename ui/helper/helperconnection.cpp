#include "helperconnection.h"

#include "pkexecfailure.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QTimer>

#include <unistd.h>

namespace {

// How long a helper gets to exit once its input is closed before it is killed: long enough
// for a move to reach a chunk boundary and journal it.
constexpr int kExitGraceMs = 10000;

} // namespace

HelperConnection::HelperConnection(const Command &command, QObject *parent)
    : QObject(parent), m_command(command)
{
    // What the helper says on stderr (ssh's own messages, a crash) is kept for died().
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &HelperConnection::readLines);
    connect(&m_process, &QProcess::readyReadStandardError, this, [this] {
        // Drained as it comes (a full pipe would stall the helper); only the end is kept.
        m_stderrTail = (m_stderrTail + m_process.readAllStandardError()).right(4096);
    });
    connect(&m_process, &QProcess::finished, this, &HelperConnection::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        QString why =
            tr("%1 could not be started: %2.").arg(m_command.program, m_process.errorString());
        if (!m_command.package.isEmpty())
            why += QLatin1Char(' ') +
                   tr("It comes with the Debian package %1.").arg(m_command.package);
        fail(why);
    });
}

HelperConnection::~HelperConnection()
{
    m_dead = true; // no callbacks into a window that is going away
    m_process.disconnect(this);
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.closeWriteChannel();
    if (!m_process.waitForFinished(kExitGraceMs)) {
        m_process.kill();
        m_process.waitForFinished(1000);
    }
}

void HelperConnection::start()
{
    if (m_command.asEffectiveUser) {
        // It works for its own user: not for whoever sudo or pkexec named for the window.
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(QStringLiteral("PKEXEC_UID"));
        environment.remove(QStringLiteral("SUDO_UID"));
        m_process.setProcessEnvironment(environment);
        m_process.setChildProcessModifier([] {
            // In the child, before exec: only ids it already has, so no privilege is needed.
            const gid_t group = ::getegid();
            const uid_t user = ::geteuid();
            if (::setresgid(group, group, group) != 0 || ::setresuid(user, user, user) != 0)
                ::_exit(126);
        });
    }
    m_process.start(m_command.program, m_command.arguments);
    call(QStringLiteral("version"), {}, [this](const HelperReply &reply) {
        if (!reply.ok())
            return; // fail() has said why
        const int protocol = reply.result.value(QStringLiteral("protocol")).toInt(-1);
        if (protocol != kProtocol) {
            fail(tr("%1 speaks protocol %2; this window speaks protocol %3. Install the same "
                    "version of Partwise on both sides.")
                     .arg(speaker())
                     .arg(protocol)
                     .arg(kProtocol));
            return;
        }
        m_ready = true;
        m_everReady = true;
        emit ready();
    });
}

int HelperConnection::call(const QString &method, const QJsonObject &params, const Reply &reply)
{
    if (m_dead) {
        // Answered later, as a live helper's would be, so callers never re-enter themselves.
        QTimer::singleShot(0, this, [this, reply] {
            HelperReply gone;
            gone.error = tr("The helper is not running.");
            reply(gone);
        });
        return 0;
    }
    const int id = m_nextId++;
    m_waiting.insert(id, reply);
    QJsonObject request{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("id"), id},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        request.insert(QStringLiteral("params"), params);
    m_process.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    return id;
}

void HelperConnection::readLines()
{
    m_buffer += m_process.readAllStandardOutput();
    qsizetype newline;
    while (!m_dead && (newline = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(newline);
        m_buffer.remove(0, newline + 1);
        handleLine(line);
    }
    if (!m_dead && m_buffer.size() > kMaxLine)
        fail(tr("The helper sent a line of more than %1 MiB; it is not speaking Partwise's "
                "protocol.")
                 .arg(kMaxLine >> 20));
}

void HelperConnection::handleLine(const QByteArray &line)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        // ssh banners and shell greetings come on stdout too: a helper that prints anything
        // but the protocol cannot be told apart from one that is broken.
        fail(tr("The helper answered with something that is not Partwise's protocol: “%1”.")
                 .arg(QString::fromUtf8(line.left(200))));
        return;
    }
    const QJsonObject object = document.object();
    if (object.contains(QStringLiteral("method"))) {
        emit notification(object.value(QStringLiteral("method")).toString(),
                          object.value(QStringLiteral("params")).toObject());
        return;
    }
    const int id = object.value(QStringLiteral("id")).toInt(-1);
    const Reply reply = m_waiting.take(id);
    if (!reply)
        return; // an answer to a line we never sent (id null): nothing waits for it
    HelperReply answer;
    if (object.contains(QStringLiteral("error"))) {
        const QJsonObject error = object.value(QStringLiteral("error")).toObject();
        answer.error = error.value(QStringLiteral("message")).toString();
        if (answer.error.isEmpty())
            answer.error = tr("The helper refused the request.");
        answer.code = error.value(QStringLiteral("code")).toInt(-1);
        answer.data = error.value(QStringLiteral("data")).toObject();
    } else {
        answer.result = object.value(QStringLiteral("result")).toObject();
    }
    reply(answer);
}

void HelperConnection::fail(const QString &why)
{
    if (m_dead)
        return;
    m_dead = true;
    m_ready = false;
    if (m_process.state() != QProcess::NotRunning)
        m_process.kill();
    // Everyone waiting hears why, then the window does.
    const QHash<int, Reply> waiting = std::exchange(m_waiting, {});
    HelperReply lost;
    lost.error = why;
    for (const Reply &reply : waiting)
        reply(lost);
    emit died(why);
}

void HelperConnection::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readLines(); // answers sent just before the end still count
    fail(describeExit(exitCode, status));
}

QString HelperConnection::speaker() const
{
    return m_command.machine.isEmpty() ? tr("The helper")
                                       : tr("The helper on %1").arg(m_command.machine);
}

QString HelperConnection::describeExit(int exitCode, QProcess::ExitStatus status)
{
    const QString where = speaker();
    // The last thing it said is usually the reason (ssh: "Connection refused", pkexec: "Not
    // authorized", sudo: "a password is required", the shell: "command not found").
    m_stderrTail += m_process.readAllStandardError();
    const QString said =
        QString::fromLocal8Bit(m_stderrTail).trimmed().split(QLatin1Char('\n')).last();
    // pkexec's own exits, before a helper ever answered: why it never started, plainly.
    const QString permission = m_command.package == QLatin1String("pkexec") && !m_everReady &&
                                       status == QProcess::NormalExit
                                   ? pkexecFailure(exitCode, said)
                                   : QString();
    if (!permission.isEmpty())
        return said.isEmpty()
                   ? permission
                   : permission + QLatin1Char(' ') + tr("(pkexec said: “%1”)").arg(said.left(300));
    QString sentence = status == QProcess::CrashExit
                           ? tr("%1 stopped unexpectedly (it crashed or was killed).").arg(where)
                           : tr("%1 ended (exit status %2).").arg(where).arg(exitCode);
    if (!said.isEmpty())
        sentence += QLatin1Char(' ') + tr("Its last words: “%1”").arg(said.left(300));
    return sentence;
}
