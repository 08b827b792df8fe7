// A local user a test creates (or finds from an earlier run), to act as a plain or hostile user:
// shell commands with only its rights (setpriv), and the environment pkexec gives the root
// helper it starts for that user.
#pragma once

#include "toolrun.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <sys/types.h>

namespace pwtest {

// Root only. The user is removed (userdel) by remove() or on destruction, and only if create()
// made it: a user that was there before the test is left as it was.
class TestUser
{
public:
    TestUser() = default;
    ~TestUser() { remove(); }
    TestUser(const TestUser &) = delete;
    TestUser &operator=(const TestUser &) = delete;

    // `useradd --system --no-create-home [--home-dir home] [--shell shell] name` unless the user
    // exists; an existing one gets `home` through usermod. False, with error(), when that fails
    // or the name is root's.
    bool create(const QString &name, const QString &shell = QStringLiteral("/bin/sh"),
                const QString &home = {});
    void remove();

    uid_t uid() const { return m_uid; }
    gid_t gid() const { return m_gid; }
    QString error() const { return m_error; }

    // setpriv's arguments that run `command` (a program and its arguments) as the user, with
    // the user's group and no supplementary groups.
    QStringList asUserArgs(const QStringList &command) const;
    // `sh -c command` as the user.
    ToolResult asUser(const QString &command, int timeoutMs = 120000) const;
    // The system environment with PKEXEC_UID naming the user, as pkexec starts a program.
    QProcessEnvironment pkexecEnvironment() const;

private:
    ToolResult add(const QString &shell, const QString &home) const;
    bool lookUp(); // uid and gid from getpwnam

    QString m_name;
    uid_t m_uid = 0;
    gid_t m_gid = 0;
    bool m_created = false;
    QString m_error;
};

} // namespace pwtest
