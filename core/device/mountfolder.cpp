#include "device/mountfolder.h"

#include "base/nofollowfile.h"

#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/magic.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace partwise {

namespace {

constexpr qsizetype kMaxPath = 4096;
constexpr int kMaxNameTries = 100;

QString reason(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

// A root-owned folder `name` in `parentFd`, created when missing; -1 unless it is a folder of
// root's that no one else may write to. Opened without following a link.
int rootFolderAt(int parentFd, const QByteArray &name, mode_t mode, gid_t group, QString *why)
{
    if (::mkdirat(parentFd, name.constData(), mode) == 0) {
        if (::fchownat(parentFd, name.constData(), 0, group, AT_SYMLINK_NOFOLLOW) != 0 ||
            ::fchmodat(parentFd, name.constData(), mode, 0) != 0) {
            *why = reason(errno);
            return -1;
        }
    } else if (errno != EEXIST) {
        *why = QStringLiteral("cannot create %1: %2").arg(QFile::decodeName(name), reason(errno));
        return -1;
    }
    const int fd =
        ::openat(parentFd, name.constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
        (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        if (fd >= 0)
            ::close(fd);
        *why =
            QStringLiteral("%1 is not a folder only root may change").arg(QFile::decodeName(name));
        return -1;
    }
    return fd;
}

// The kernel's own views (/proc, /sys, cgroups, /dev/pts…): a folder there may belong to the
// user (/proc/PID of their process, a delegated cgroup), but a mount over it changes what root's
// tools see (a process hidden from ps), which no user can do alone.
bool onKernelView(int fd)
{
    struct statfs sf;
    if (::fstatfs(fd, &sf) != 0)
        return true;
    switch (static_cast<unsigned long>(sf.f_type)) {
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
    case DEVPTS_SUPER_MAGIC:
    case DEBUGFS_MAGIC:
    case TRACEFS_MAGIC:
    case SECURITYFS_MAGIC:
    case BPF_FS_MAGIC:
    case PSTOREFS_MAGIC:
    case EFIVARFS_MAGIC:
    case BINFMTFS_MAGIC:
    case NSFS_MAGIC:
        return true;
    default:
        return false;
    }
}

} // namespace

int openMountFolder(const QString &path, std::optional<uid_t> owner, QString *why, bool *nameStable)
{
    if (path.isEmpty() || path.size() > kMaxPath || path.contains(QChar(0)) ||
        !path.startsWith(QLatin1Char('/')) || QDir::cleanPath(path) != path) {
        *why = QStringLiteral("the folder must be a plain absolute path (no \"..\" or \"//\")");
        return -1;
    }
    bool stable = false;
    const int fd = openPathNoFollow(path, &stable);
    if (fd < 0) {
        *why = errno == ELOOP
                   ? QStringLiteral("%1 goes through a symbolic link").arg(path.left(200))
                   : QStringLiteral("%1 cannot be opened: %2").arg(path.left(200), reason(errno));
        return -1;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
        ::close(fd);
        *why = QStringLiteral("%1 is not a folder").arg(path.left(200));
        return -1;
    }
    if (owner && st.st_uid != *owner) {
        ::close(fd);
        *why = QStringLiteral("%1 is not your folder (it belongs to uid %2); mount on a folder of "
                              "your own, or under /run/media")
                   .arg(path.left(200))
                   .arg(st.st_uid);
        return -1;
    }
    if (owner && onKernelView(fd)) {
        ::close(fd);
        *why = QStringLiteral("%1 is a folder of the kernel's (/proc, /sys), not one to mount on")
                   .arg(path.left(200));
        return -1;
    }
    if (nameStable)
        *nameStable = stable;
    return fd;
}

QString mediaFolderName(const QString &label)
{
    QString name;
    for (const QChar c : label)
        name +=
            (c == QLatin1Char('/') || c.category() == QChar::Other_Control) ? QLatin1Char('_') : c;
    while (name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    name = name.left(64);
    return name.trimmed().isEmpty() ? QStringLiteral("disk") : name;
}

namespace {

// /run/media/USER, made as makeMediaFolder() says when missing; its O_PATH descriptor.
int userMediaFolder(uid_t uid, QByteArray *userName, QString *why)
{
    const passwd *user = ::getpwuid(uid);
    if (!user || !user->pw_name || std::strchr(user->pw_name, '/') || user->pw_name[0] == '.') {
        *why = QStringLiteral("uid %1 has no usable user name").arg(uid);
        return -1;
    }
    *userName = QByteArray(user->pw_name);
    const gid_t group = user->pw_gid;
    const int run = ::open("/run", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (run < 0) {
        *why = QStringLiteral("/run cannot be opened: %1").arg(reason(errno));
        return -1;
    }
    const int media = rootFolderAt(run, "media", 0755, 0, why);
    ::close(run);
    if (media < 0)
        return -1;
    const int mine = rootFolderAt(media, *userName, 0750, group, why);
    ::close(media);
    return mine;
}

// The NAME of "/run/media/USER/NAME" for `uid`'s USER; empty when `path` is anything else.
QByteArray mediaName(int *mine, uid_t uid, const QString &path, QString *why)
{
    QByteArray userName;
    *mine = userMediaFolder(uid, &userName, why);
    if (*mine < 0)
        return {};
    const QByteArray prefix = "/run/media/" + userName + '/';
    const QByteArray encoded = QFile::encodeName(path);
    const QByteArray name = encoded.mid(prefix.size());
    if (!encoded.startsWith(prefix) || name.isEmpty() || name.contains('/') || name == "." ||
        name == "..") {
        *why = QStringLiteral("%1 is not a folder under /run/media/%2")
                   .arg(path.left(200), QFile::decodeName(userName));
        return {};
    }
    return name;
}

} // namespace

bool removeMediaFolder(uid_t uid, const QString &path, QString *why)
{
    int mine = -1;
    const QByteArray name = mediaName(&mine, uid, path, why);
    // Only an empty folder goes (AT_REMOVEDIR), in a folder only root may change.
    const bool ok = !name.isEmpty() && ::unlinkat(mine, name.constData(), AT_REMOVEDIR) == 0;
    if (!ok && !name.isEmpty())
        *why = QStringLiteral("%1 was not removed: %2").arg(path.left(200), reason(errno));
    if (mine >= 0)
        ::close(mine);
    return ok;
}

bool remakeMediaFolder(uid_t uid, const QString &path, QString *why)
{
    int mine = -1;
    const QByteArray name = mediaName(&mine, uid, path, why);
    const bool ok = !name.isEmpty() && ::mkdirat(mine, name.constData(), 0700) == 0;
    if (!ok && !name.isEmpty())
        *why = QStringLiteral("%1 cannot be made again: %2").arg(path.left(200), reason(errno));
    if (mine >= 0)
        ::close(mine);
    return ok;
}

int makeMediaFolder(uid_t uid, const QString &label, QString *path, QString *why)
{
    QByteArray userName;
    const int mine = userMediaFolder(uid, &userName, why);
    if (mine < 0)
        return -1;
    const QByteArray base = QFile::encodeName(mediaFolderName(label));
    int fd = -1;
    for (int i = 0; fd < 0 && i < kMaxNameTries; ++i) {
        const QByteArray name = i == 0 ? base : base + QByteArray::number(i);
        if (::mkdirat(mine, name.constData(), 0700) != 0)
            continue; // taken (by an earlier mount, or anything else): the next name
        fd = ::openat(mine, name.constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        *path = QStringLiteral("/run/media/%1/%2")
                    .arg(QFile::decodeName(userName), QFile::decodeName(name));
    }
    ::close(mine);
    if (fd < 0)
        *why = QStringLiteral("no free folder name under /run/media/%1")
                   .arg(QFile::decodeName(userName));
    return fd;
}

bool remakeAutomounterFolder(const QString &path, std::optional<uid_t> forUser, QString *why)
{
    const QStringList parts = path.split(QLatin1Char('/'));
    // "", "media", USER, NAME  or  "", "run", "media", USER, NAME
    const bool underMedia = parts.size() == 4 && parts[1] == QLatin1String("media");
    const bool underRunMedia =
        parts.size() == 5 && parts[1] == QLatin1String("run") && parts[2] == QLatin1String("media");
    const QString name = parts.last();
    if ((!underMedia && !underRunMedia) || QDir::cleanPath(path) != path || name.isEmpty() ||
        name.startsWith(QLatin1Char('.'))) {
        *why = QStringLiteral("%1 is not an automounter's folder").arg(path.left(200));
        return false;
    }
    const QString userName = parts[parts.size() - 2];
    if (forUser) {
        const passwd *user = ::getpwuid(*forUser);
        if (!user || QFile::decodeName(user->pw_name) != userName) {
            *why = QStringLiteral("%1 is not in your media folder").arg(path.left(200));
            return false;
        }
    }
    const QString parentPath = path.left(path.size() - name.size() - 1);
    bool stable = false; // every folder on the way is root's alone
    const int parent = openPathNoFollow(parentPath, &stable);
    struct stat st;
    if (parent < 0 || !stable || ::fstat(parent, &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != 0 || (st.st_mode & 0022) != 0) {
        *why = QStringLiteral("%1 is not root's own folder").arg(parentPath.left(200));
        if (parent >= 0)
            ::close(parent);
        return false;
    }
    // O_PATH descriptors take no mkdirat: the folder again, as a directory descriptor.
    const int dir = ::openat(parent, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ::close(parent);
    const bool ok = dir >= 0 && ::mkdirat(dir, QFile::encodeName(name).constData(), 0700) == 0;
    if (!ok)
        *why = QStringLiteral("%1 cannot be made again: %2").arg(path.left(200), reason(errno));
    if (dir >= 0)
        ::close(dir);
    return ok;
}

} // namespace partwise
