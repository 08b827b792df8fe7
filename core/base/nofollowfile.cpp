#include "base/nofollowfile.h"

#include <QDir>
#include <QFile>
#include <QList>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

QString systemReason(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

bool onlyRootWrites(const struct stat &folder)
{
    return folder.st_uid == 0 && (folder.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

} // namespace

int openPathNoFollow(const QString &absolutePath, bool *nameStable)
{
    const QByteArray path = QFile::encodeName(absolutePath);
    if (!path.startsWith('/')) {
        errno = EINVAL;
        return -1;
    }
    int current = ::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    *nameStable = true;
    const QList<QByteArray> parts = path.mid(1).split('/');
    for (qsizetype i = 0; current >= 0 && i < parts.size(); ++i) {
        struct stat folder;
        if (::fstat(current, &folder) != 0 || !S_ISDIR(folder.st_mode)) {
            ::close(current);
            errno = ENOTDIR;
            return -1;
        }
        *nameStable = *nameStable && onlyRootWrites(folder);
        const int next = ::openat(current, parts[i].constData(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
        const int code = errno;
        ::close(current);
        struct stat st;
        if (next >= 0 && ::fstat(next, &st) == 0 && S_ISLNK(st.st_mode)) {
            ::close(next);
            errno = ELOOP;
            return -1;
        }
        errno = code;
        current = next;
    }
    return current;
}

int createFileExclusively(const QString &path, int accessFlags)
{
    const QByteArray name = QFile::encodeName(path);
    // unlink() removes a link itself, not what it points at; a link planted again in between
    // makes O_EXCL fail instead of being followed.
    if (::unlink(name.constData()) != 0 && errno != ENOENT)
        return -1;
    return ::open(name.constData(), accessFlags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

int openRegularNoFollow(const QString &path, int accessFlags)
{
    const int fd = ::open(QFile::encodeName(path).constData(),
                          accessFlags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        errno = EINVAL;
        return -1;
    }
    // Back to blocking I/O for the reads and writes that follow.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

bool readRegularFileBounded(const QString &path, qint64 maxBytes, QByteArray *out, QString *why)
{
    const int fd = openRegularNoFollow(path, O_RDONLY);
    if (fd < 0) {
        *why = errno == EINVAL || errno == ELOOP ? QStringLiteral("not a regular file")
                                                 : systemReason(errno);
        return false;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0 || st.st_size > maxBytes) {
        ::close(fd);
        *why = QStringLiteral("larger than %1 bytes").arg(maxBytes);
        return false;
    }
    if (st.st_uid != ::geteuid() && st.st_uid != 0) {
        ::close(fd);
        *why = QStringLiteral("it belongs to another user (uid %1), who may have put it there; "
                              "Partwise reads back only its own files")
                   .arg(st.st_uid);
        return false;
    }
    QByteArray data(qsizetype(st.st_size), Qt::Uninitialized);
    qint64 done = 0;
    while (done < data.size()) {
        const ssize_t n = ::read(fd, data.data() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // shorter than it was: what was read is what there is
        done += n;
    }
    ::close(fd);
    data.truncate(done);
    *out = data;
    return true;
}

bool makePrivateFolder(const QString &folder, QString *why)
{
    // Walked one component at a time: a missing one is created 0700, and each must belong to
    // root or to us and be writable by no one else (a sticky folder such as /tmp excepted,
    // whose entries others cannot rename), so no other user can swap a link or a folder of
    // theirs in on the way. The names used later stay bound to these folders.
    const QByteArray path = QFile::encodeName(QDir::cleanPath(folder));
    if (!path.startsWith('/')) {
        *why = QStringLiteral("%1 is not an absolute path").arg(folder);
        return false;
    }
    int current = ::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    for (const QByteArray &part : path.mid(1).split('/')) {
        if (part.isEmpty())
            continue;
        if (::mkdirat(current, part.constData(), 0700) != 0 && errno != EEXIST)
            break;
        const int next =
            ::openat(current, part.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ::close(current);
        current = next;
        struct stat st;
        if (current < 0 || ::fstat(current, &st) != 0)
            break;
        const bool owned = st.st_uid == 0 || st.st_uid == ::geteuid();
        const bool othersWrite = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
        if (!owned || (othersWrite && !(st.st_mode & S_ISVTX)) ||
            (::geteuid() == 0 && st.st_uid != 0)) {
            ::close(current);
            *why = QStringLiteral("%1 may be changed by another user").arg(folder);
            return false;
        }
    }
    if (current < 0) {
        *why = QStringLiteral("cannot create %1: %2").arg(folder, systemReason(errno));
        return false;
    }
    const bool ok = ::fchmod(current, 0700) == 0;
    if (!ok)
        *why = systemReason(errno);
    ::close(current);
    return ok;
}

} // namespace partwise
