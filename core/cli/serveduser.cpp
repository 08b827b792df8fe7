#include "cli/serveduser.h"

#include <QByteArray>
#include <QList>

#include <cstdlib>
#include <pwd.h>
#include <unistd.h>

extern char **environ;

namespace partwise {

namespace {

constexpr char kSystemPath[] = "/usr/sbin:/usr/bin:/sbin:/bin";

// The locale for messages, and the two names of the user served, read after the reset. A locale
// is a name (de_DE.UTF-8), never a path: glibc loads a locale, and gettext the catalogs of
// libparted and util-linux, from a folder that a value with a '/' names, which could be the
// user's. pkexec and sudo drop such values too; the helper does not count on its launcher.
bool kept(const QByteArray &name, const QByteArray &value)
{
    if (name == "PKEXEC_UID" || name == "SUDO_UID")
        return true;
    const bool locale = name == "LANG" || name == "LANGUAGE" || name.startsWith("LC_");
    return locale && !value.contains('/') && !value.contains('%') && !value.contains("..");
}

} // namespace

std::optional<uid_t> parseUserNumber(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 10)
        return std::nullopt;
    quint64 value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + quint64(c - '0');
    }
    if (value >= quint64(uid_t(-1)))
        return std::nullopt; // (uid_t)-1 means "no user" to the kernel
    return uid_t(value);
}

std::optional<ServedUser> servedUserFromEnvironment(QString *why)
{
    ServedUser user;
    user.uid = ::geteuid();
    user.privileged = user.uid == 0;
    if (!user.privileged)
        return user;
    std::optional<uid_t> named;
    for (const char *variable : {"PKEXEC_UID", "SUDO_UID"}) {
        if (!qEnvironmentVariableIsSet(variable))
            continue;
        const std::optional<uid_t> uid = parseUserNumber(qgetenv(variable));
        if (!uid) {
            *why = QStringLiteral("%1 is not a user number; refusing to serve.")
                       .arg(QLatin1String(variable));
            return std::nullopt;
        }
        if (named && *named != *uid) {
            *why = QStringLiteral("PKEXEC_UID and SUDO_UID name different users; refusing to "
                                  "serve.");
            return std::nullopt;
        }
        named = uid;
    }
    if (named)
        user.uid = *named;
    return user;
}

bool startedForAnotherUser()
{
    return ::geteuid() == 0 &&
           (qEnvironmentVariableIsSet("PKEXEC_UID") || qEnvironmentVariableIsSet("SUDO_UID"));
}

void resetEnvironmentForUser()
{
    QList<QByteArray> keep;
    for (char **entry = environ; entry && *entry; ++entry) {
        const QByteArray pair(*entry);
        const qsizetype equals = pair.indexOf('=');
        if (equals > 0 && kept(pair.left(equals), pair.mid(equals + 1)))
            keep << pair;
    }
    ::clearenv();
    for (const QByteArray &pair : std::as_const(keep)) {
        const qsizetype equals = pair.indexOf('=');
        ::setenv(pair.left(equals).constData(), pair.mid(equals + 1).constData(), 1);
    }
    ::setenv("PATH", kSystemPath, 1);
    // The helper's own home (root's), where tools that look for one find root's files.
    if (const passwd *self = ::getpwuid(::geteuid()); self && self->pw_dir)
        ::setenv("HOME", self->pw_dir, 1);
}

} // namespace partwise
