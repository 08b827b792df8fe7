// A desktop user's active session in the test guest, which runs no systemd and so no logind:
// what logind would leave behind for one (its records under /run/systemd and the session's
// cgroup), which is all polkit and udisks2 read, through libsystemd's sd-login, to decide that a
// caller is in the active local session. Polkit's rules stay the default ones; without this, the
// same call is refused (NotAuthorizedCanObtain: seen in the guest).
#pragma once

#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QString>

namespace pwtest {

class GuestSession
{
public:
    explicit GuestSession(const TestUser &user, const QString &name) : m_user(user)
    {
        m_scope = QStringLiteral("/sys/fs/cgroup/user.slice/user-%1.slice/session-pw1.scope")
                      .arg(user.uid());
        m_ok = runTool(QStringLiteral("mount"),
                       {QStringLiteral("-t"), QStringLiteral("cgroup2"), QStringLiteral("none"),
                        QStringLiteral("/sys/fs/cgroup")})
                   .ok() &&
               QDir().mkpath(m_scope) && QDir().mkpath(QStringLiteral("/run/systemd/system")) &&
               write(QStringLiteral("/run/systemd/sessions/pw1"),
                     QStringLiteral("UID=%1\nUSER=%2\nACTIVE=1\nSTATE=active\nREMOTE=0\n"
                                    "SEAT=seat0\nTYPE=x11\nCLASS=user\n")
                         .arg(user.uid())
                         .arg(name)) &&
               write(QStringLiteral("/run/systemd/users/%1").arg(user.uid()),
                     QStringLiteral("NAME=%1\nSTATE=active\nDISPLAY=pw1\nSESSIONS=pw1\n"
                                    "ONLINE_SESSIONS=pw1\nACTIVE_SESSIONS=pw1\n")
                         .arg(name));
    }
    ~GuestSession()
    {
        QDir(QStringLiteral("/run/systemd")).removeRecursively();
        for (QString dir = m_scope; dir != QLatin1String("/sys/fs/cgroup");
             dir = dir.section(u'/', 0, -2))
            QDir().rmdir(dir);
        runTool(QStringLiteral("umount"), {QStringLiteral("/sys/fs/cgroup")});
    }
    bool ok() const { return m_ok; }

    // `command` as the user, inside the session's cgroup (as a program of the desktop runs).
    ToolResult run(const QStringList &command) const
    {
        return runTool(
            QStringLiteral("sh"),
            QStringList{
                QStringLiteral("-c"),
                QStringLiteral("echo $$ > %1/cgroup.procs && exec setpriv \"$@\"").arg(m_scope),
                QStringLiteral("sh")} +
                m_user.asUserArgs(command));
    }

private:
    static bool write(const QString &path, const QString &text)
    {
        QDir().mkpath(path.section(u'/', 0, -2));
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) == text.toUtf8().size();
    }

    const TestUser &m_user;
    QString m_scope;
    bool m_ok = false;
};

} // namespace pwtest
