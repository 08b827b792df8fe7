#include "testuser.h"

#include <grp.h>
#include <pwd.h>

namespace pwtest {

bool TestUser::create(const QString &name, const QString &shell, const QString &home)
{
    m_name = name;
    const bool existed = ::getpwnam(name.toLocal8Bit().constData()) != nullptr;
    if (!existed || !home.isEmpty()) {
        const ToolResult made =
            existed ? runTool(QStringLiteral("usermod"), {QStringLiteral("--home"), home, name})
                    : add(shell, home);
        if (!made.ok()) {
            m_error = made.describe();
            return false;
        }
        m_created = !existed;
    }
    return lookUp();
}

bool TestUser::lookUp()
{
    const passwd *user = ::getpwnam(m_name.toLocal8Bit().constData());
    if (!user || user->pw_uid == 0) {
        m_error = QStringLiteral("%1: no such user, or it is root").arg(m_name);
        return false;
    }
    m_uid = user->pw_uid;
    m_gid = user->pw_gid;
    return true;
}

ToolResult TestUser::add(const QString &shell, const QString &home) const
{
    QStringList args{QStringLiteral("--system"), QStringLiteral("--no-create-home")};
    if (!home.isEmpty())
        args << QStringLiteral("--home-dir") << home;
    if (!shell.isEmpty())
        args << QStringLiteral("--shell") << shell;
    return runTool(QStringLiteral("useradd"), args << m_name);
}

void TestUser::remove()
{
    if (m_created) {
        runTool(QStringLiteral("userdel"), {m_name});
        // userdel keeps the user's group when it cannot drop it (guest_desktop saw this), and the
        // next useradd of the name then fails: removed too, if it is still there.
        if (::getgrnam(m_name.toLocal8Bit().constData()))
            runTool(QStringLiteral("groupdel"), {m_name});
    }
    m_created = false;
}

QStringList TestUser::asUserArgs(const QStringList &command) const
{
    return QStringList{QStringLiteral("--reuid=%1").arg(m_uid),
                       QStringLiteral("--regid=%1").arg(m_gid), QStringLiteral("--clear-groups")} +
           command;
}

ToolResult TestUser::asUser(const QString &command, int timeoutMs) const
{
    return runTool(QStringLiteral("setpriv"),
                   asUserArgs({QStringLiteral("sh"), QStringLiteral("-c"), command}), {},
                   timeoutMs);
}

QProcessEnvironment TestUser::pkexecEnvironment() const
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("PKEXEC_UID"), QString::number(m_uid));
    return environment;
}

} // namespace pwtest
