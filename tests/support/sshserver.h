// A private OpenSSH server for tests (root only): its own host key, a key made for the client,
// and an authorized_keys that sets PATH so the build's partwise-cli is "installed" there, all
// in a temporary folder; it listens on 127.0.0.1 on a free port. clientProgram() takes ssh's
// arguments and talks to it with the test's key (for PARTWISE_SSH), as a user's ssh config
// would. Nothing of the machine's own ssh setup is read or changed.
#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace pwtest {

class SshServer
{
public:
    // `pathFirst`: folder put first on PATH for every session (where partwise-cli is).
    explicit SshServer(const QString &pathFirst);
    ~SshServer();
    SshServer(const SshServer &) = delete;
    SshServer &operator=(const SshServer &) = delete;

    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    int port() const { return m_port; }
    QString clientProgram() const { return m_dir.filePath(QStringLiteral("ssh-client")); }

private:
    bool writeFiles(const QString &pathFirst);
    bool waitUntilListening(int timeoutMs);

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
    QString m_error;
};

} // namespace pwtest
