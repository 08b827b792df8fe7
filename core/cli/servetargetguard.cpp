#include "cli/servetargetguard.h"

#include "base/nofollowfile.h"
#include "base/uniquefd.h"
#include "device/opendisk.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

constexpr qsizetype kMaxPath = 4096;

const QString kDisksOnly =
    QStringLiteral("the administrator's helper works on disks in /dev only; open an image as "
                   "yourself (Partwise needs no password for your own files)");

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

bool refuse(const QString &path, const QString &reason, QString *why)
{
    *why = QStringLiteral("%1 is refused: %2.").arg(path.left(200), reason);
    return false;
}

// udev's stable names (by-id, by-path, by-uuid…) are links that root's udev made to a disk in
// /dev; they are read once here, and the disk's own name is what the walk then opens.
QString throughUdevName(const QString &path)
{
    if (!path.startsWith(QLatin1String("/dev/disk/")))
        return path;
    const QString target = QFileInfo(path).canonicalFilePath();
    const bool diskInDev =
        target.startsWith(QLatin1String("/dev/")) && target.count(QLatin1Char('/')) == 2;
    return diskInDev ? target : path;
}

} // namespace

bool ServeTargetGuard::admits(const QString &path, QString *why, QString *resolved) const
{
    return admitsOpening(path, why, resolved, nullptr);
}

bool ServeTargetGuard::admitsOpening(const QString &path, QString *why, QString *resolved,
                                     OpenDisk *opened) const
{
    if (resolved)
        *resolved = path;
    if (path.isEmpty() || path.size() > kMaxPath || path.contains(QChar(0)))
        return refuse(path, QStringLiteral("not a usable path"), why);
    if (!path.startsWith(QLatin1Char('/')) || QDir::cleanPath(path) != path)
        return refuse(path, QStringLiteral("give a plain absolute path (no \"..\" or \"//\")"),
                      why);
    if (m_user.privileged) {
        const QString name = throughUdevName(path);
        if (resolved)
            *resolved = name;
        return admitsPrivileged(path, name, why, opened);
    }
    // Only the user's own rights: the kernel decides what may be opened, links included.
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return refuse(path, QStringLiteral("it does not exist"), why);
    if (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))
        return true;
    return refuse(path, QStringLiteral("it is neither a block device nor a disk image file"), why);
}

bool ServeTargetGuard::opens(const QString &path, OpenDisk *disk, QString *why) const
{
    if (!admitsOpening(path, why, nullptr, disk))
        return false;
    // Without root the kernel judged the name: the open by name is the user's own.
    return m_user.privileged || disk->open(path, why);
}

bool ServeTargetGuard::admitsPrivileged(const QString &path, const QString &resolved, QString *why,
                                        OpenDisk *opened) const
{
    // Root working for a user looks at nothing outside /dev: not even whether a file exists,
    // which in a folder the user cannot search would tell them what root can see.
    if (m_user.actsForUser() && !resolved.startsWith(QLatin1String("/dev/")))
        return refuse(path, kDisksOnly, why);
    bool nameStable = false;
    const UniqueFd fd(openPathNoFollow(resolved, &nameStable));
    if (!fd.valid() && errno == ELOOP)
        return refuse(path, QStringLiteral("it goes through a symbolic link"), why);
    if (!fd.valid())
        return refuse(path, QStringLiteral("it does not exist"), why);
    struct stat st;
    const bool statted = ::fstat(fd.get(), &st) == 0;
    if (!statted)
        return refuse(path, QStringLiteral("it cannot be examined"), why);
    if (S_ISBLK(st.st_mode)) {
        if (m_user.actsForUser() && !nameStable)
            return refuse(path,
                          QStringLiteral("a folder on its way may be changed by users other "
                                         "than root; name the disk in /dev"),
                          why);
        return !opened || opened->openFrom(fd.get(), resolved, why);
    }
    if (!S_ISREG(st.st_mode))
        return refuse(path, QStringLiteral("it is neither a block device nor a disk image file"),
                      why);
    if (m_user.actsForUser())
        return refuse(path, kDisksOnly, why);
    if (inSystemFolder(resolved))
        return refuse(path, QStringLiteral("it lies in a system folder"), why);
    if (st.st_uid != m_user.uid)
        return refuse(path,
                      QStringLiteral("the file belongs to another user (uid %1, not %2)")
                          .arg(st.st_uid)
                          .arg(m_user.uid),
                      why);
    return !opened || opened->openFrom(fd.get(), resolved, why);
}

bool ServeTargetGuard::admitsUnmountAt(const QString &target, QString *why) const
{
    if (!m_user.actsForUser())
        return true;
    QStringList places;
    const passwd *user = ::getpwuid(m_user.uid);
    if (user && user->pw_dir) {
        const QString home = QDir::cleanPath(QFile::decodeName(user->pw_dir));
        if (home.startsWith(QLatin1Char('/')) && home != QLatin1String("/"))
            places << home;
    }
    // udisks mounts a user's filesystems in /run/media/USER (or /media/USER), a folder only that
    // user may enter: another user's is not freed for this one (who could then mount it on a
    // folder of their own and read it). /mnt and the rest of /media are the administrator's.
    const QString own = user && user->pw_name ? QFile::decodeName(user->pw_name) : QString();
    if (!own.isEmpty() && !own.contains(QLatin1Char('/')))
        places << QStringLiteral("/run/media/") + own << QStringLiteral("/media/") + own;
    for (const QString &place : places)
        if (target == place || target.startsWith(place + QLatin1Char('/')))
            return true;
    *why = QStringLiteral("%1 was not mounted for you; only what is mounted in your own "
                          "/run/media/USER or /media/USER, in your home, or by this helper is "
                          "unmounted for you (an administrator may run: umount %1)")
               .arg(target.left(200));
    return false;
}

} // namespace partwise
