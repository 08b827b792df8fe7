#include "cli/servetargetguard.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

constexpr qsizetype kMaxPath = 4096;

const char *const kSystemFolders[] = {"/etc",    "/proc", "/sys",     "/boot",    "/usr",
                                      "/bin",    "/sbin", "/lib",     "/lib32",   "/lib64",
                                      "/libx32", "/run",  "/var/lib", "/var/log", "/dev"};

bool inSystemFolder(const QString &path)
{
    for (const char *folder : kSystemFolders) {
        const QString f = QString::fromLatin1(folder);
        if (path == f || path.startsWith(f + QLatin1Char('/')))
            return true;
    }
    return false;
}

bool readUid(const char *variable, uid_t *uid)
{
    bool ok = false;
    const uint value = qEnvironmentVariable(variable).toUInt(&ok);
    if (ok)
        *uid = static_cast<uid_t>(value);
    return ok;
}

} // namespace

ServeTargetGuard ServeTargetGuard::fromEnvironment()
{
    // The user whose rights it runs with: the effective one, which decides what it may open.
    uid_t uid = ::geteuid();
    if (!readUid("PKEXEC_UID", &uid))
        readUid("SUDO_UID", &uid);
    return ServeTargetGuard(uid, ::geteuid() == 0);
}

bool ServeTargetGuard::admits(const QString &path, QString *why) const
{
    auto refuse = [why, &path](const QString &reason) {
        *why = QStringLiteral("%1 is refused: %2.").arg(path.left(200), reason);
        return false;
    };
    if (path.isEmpty() || path.size() > kMaxPath || path.contains(QChar(0)))
        return refuse(QStringLiteral("not a usable path"));
    if (!path.startsWith(QLatin1Char('/')) || QDir::cleanPath(path) != path)
        return refuse(QStringLiteral("give a plain absolute path (no \"..\" or \"//\")"));
    const QByteArray name = QFile::encodeName(path);
    struct stat link;
    if (::lstat(name.constData(), &link) != 0)
        return refuse(QStringLiteral("it does not exist"));
    const QString canonical = QFileInfo(path).canonicalFilePath();
    struct stat st;
    if (canonical.isEmpty() || ::stat(QFile::encodeName(canonical).constData(), &st) != 0)
        return refuse(QStringLiteral("it cannot be resolved"));
    if (!m_privileged) {
        if (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))
            return true;
        return refuse(QStringLiteral("it is neither a block device nor a disk image file"));
    }
    if (canonical != path) {
        // udev's stable names (by-id, by-path, by-uuid…) are links to the disks themselves.
        const bool udevName = path.startsWith(QLatin1String("/dev/disk/")) && S_ISBLK(st.st_mode) &&
                              canonical.startsWith(QLatin1String("/dev/"));
        if (!udevName)
            return refuse(QStringLiteral("it goes through a symbolic link (to %1)").arg(canonical));
    }
    if (S_ISBLK(st.st_mode))
        return true;
    if (!S_ISREG(st.st_mode))
        return refuse(QStringLiteral("it is neither a block device nor a disk image file"));
    if (inSystemFolder(canonical))
        return refuse(QStringLiteral("it lies in a system folder"));
    if (st.st_uid != m_user)
        return refuse(QStringLiteral("the file belongs to another user (uid %1, not %2)")
                          .arg(st.st_uid)
                          .arg(m_user));
    return true;
}

} // namespace partwise
