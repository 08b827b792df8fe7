#include "sshserver.h"

#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace pwtest {

namespace {

constexpr char kSshd[] = "/usr/sbin/sshd";

// A port the kernel says is free now (bound to port 0, then released).
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 0;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    if (fd >= 0)
        ::close(fd);
    return port;
}

bool accepts(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(quint16(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool connected =
        fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
    if (fd >= 0)
        ::close(fd);
    return connected;
}

bool writeText(const QString &path, const QByteArray &text, bool executable = false)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return false;
    f.close();
    return !executable || f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
}

} // namespace

SshServer::SshServer(const QString &pathFirst)
{
    if (!QFile::exists(QString::fromLatin1(kSshd))) {
        m_error = QStringLiteral("%1 is missing (Debian package openssh-server)").arg(kSshd);
        return;
    }
    if (!m_dir.isValid() || !writeFiles(pathFirst))
        return;
    QDir().mkpath(QStringLiteral("/run/sshd")); // sshd's privilege separation folder
    // -D: stays in the foreground as our child; -e: its log goes to stderr, kept for errors.
    m_sshd.setProcessChannelMode(QProcess::MergedChannels);
    m_sshd.start(QString::fromLatin1(kSshd),
                 {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                  m_dir.filePath(QStringLiteral("sshd_config"))});
    if (!m_sshd.waitForStarted() || !waitUntilListening(10000))
        m_error =
            QStringLiteral("sshd did not start: %1").arg(QString::fromLocal8Bit(m_sshd.readAll()));
}

SshServer::~SshServer()
{
    if (m_sshd.state() != QProcess::NotRunning) {
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(5000))
            m_sshd.kill();
        m_sshd.waitForFinished(1000);
    }
}

bool SshServer::writeFiles(const QString &pathFirst)
{
    const auto keygen = [this](const QString &name) {
        const ToolResult made =
            runTool(QStringLiteral("ssh-keygen"),
                    {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                     QStringLiteral("-N"), QString(), QStringLiteral("-f"), m_dir.filePath(name)});
        if (!made.ok())
            m_error = made.describe();
        return made.ok();
    };
    if (!keygen(QStringLiteral("host_key")) || !keygen(QStringLiteral("client_key")))
        return false;
    QFile publicKey(m_dir.filePath(QStringLiteral("client_key.pub")));
    if (!publicKey.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("no client_key.pub");
        return false;
    }
    const QByteArray path = QFile::encodeName(pathFirst) + ":/usr/sbin:/usr/bin:/sbin:/bin";
    m_port = freePort();
    const QByteArray dir = QFile::encodeName(m_dir.path());
    const QByteArray config = "Port " + QByteArray::number(m_port) +
                              "\nListenAddress 127.0.0.1\n"
                              "HostKey " +
                              dir +
                              "/host_key\n"
                              "PidFile " +
                              dir +
                              "/sshd.pid\n"
                              "AuthorizedKeysFile " +
                              dir +
                              "/authorized_keys\n"
                              "PermitRootLogin prohibit-password\n"
                              "PasswordAuthentication no\n"
                              "KbdInteractiveAuthentication no\n"
                              "PermitUserEnvironment PATH\n"
                              "UsePAM no\n"
                              "StrictModes no\n";
    const QByteArray client = "#!/bin/sh\nexec ssh -F /dev/null -i " + dir + "/client_key -p " +
                              QByteArray::number(m_port) +
                              " -o StrictHostKeyChecking=no -o UserKnownHostsFile=" + dir +
                              "/known_hosts -o BatchMode=yes -o LogLevel=ERROR \"$@\"\n";
    if (!writeText(m_dir.filePath(QStringLiteral("sshd_config")), config) ||
        !writeText(m_dir.filePath(QStringLiteral("authorized_keys")),
                   "environment=\"PATH=" + path + "\" " + publicKey.readAll()) ||
        !writeText(clientProgram(), client, true)) {
        m_error = QStringLiteral("cannot write the ssh files in %1").arg(m_dir.path());
        return false;
    }
    return true;
}

bool SshServer::waitUntilListening(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs && m_sshd.state() == QProcess::Running) {
        if (accepts(m_port))
            return true;
        QThread::msleep(50);
    }
    return false;
}

} // namespace pwtest
