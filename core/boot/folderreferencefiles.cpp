#include "boot/folderreferencefiles.h"

#include "base/positionedio.h"
#include "base/uniquefd.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

QString reason(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// The folder holding `path`, walked from `root` without following a link; its last component in
// `*name`. -1 with errno (ELOOP or ENOTDIR where a component is a link).
int openParent(int root, const QString &path, QByteArray *name)
{
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.isEmpty() || parts.contains(QLatin1String("..")) ||
        parts.contains(QLatin1String("."))) {
        errno = EINVAL;
        return -1;
    }
    int dir = ::fcntl(root, F_DUPFD_CLOEXEC, 0);
    for (qsizetype i = 0; dir >= 0 && i + 1 < parts.size(); ++i) {
        const int next = ::openat(dir, QFile::encodeName(parts.at(i)).constData(),
                                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        const int saved = errno;
        ::close(dir);
        errno = saved;
        dir = next;
    }
    *name = QFile::encodeName(parts.last());
    return dir;
}

bool writeAll(int fd, const QByteArray &bytes)
{
    return writeFullAt(fd, bytes.constData(), bytes.size(), 0);
}

} // namespace

ReferenceFiles::Read FolderReferenceFiles::read(const QString &path, QByteArray *bytes,
                                                QString *why)
{
    QByteArray name;
    const UniqueFd dir(openParent(m_root, path, &name));
    if (dir.get() < 0) {
        if (errno == ENOENT)
            return Read::Missing;
        *why = errno == ELOOP || errno == ENOTDIR
                   ? QStringLiteral("a folder on its way is a symbolic link or no folder")
                   : reason(errno);
        return errno == ELOOP || errno == ENOTDIR ? Read::NotPlain : Read::Failed;
    }
    const UniqueFd fd(::openat(dir.get(), name.constData(),
                               O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (fd.get() < 0) {
        if (errno == ENOENT)
            return Read::Missing;
        *why = errno == ELOOP ? QStringLiteral("a symbolic link, never followed") : reason(errno);
        return errno == ELOOP || errno == EACCES ? Read::NotPlain : Read::Failed;
    }
    struct stat st;
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = QStringLiteral("not a regular file");
        return Read::NotPlain;
    }
    if (st.st_size > kMaxReferenceFileBytes) {
        *why = QStringLiteral("larger than %1 bytes").arg(kMaxReferenceFileBytes);
        return Read::NotPlain;
    }
    bytes->resize(qsizetype(st.st_size));
    const qint64 n = readFullAt(fd.get(), bytes->data(), bytes->size(), 0);
    if (n != bytes->size()) {
        *why = n < 0 ? reason(errno) : QStringLiteral("it shrank while read");
        return Read::Failed;
    }
    return Read::Ok;
}

QStringList FolderReferenceFiles::list(const QString &folder)
{
    QByteArray name;
    const UniqueFd parent(openParent(m_root, folder, &name));
    if (parent.get() < 0)
        return {};
    const int fd =
        ::openat(parent.get(), name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *dir = fd >= 0 ? ::fdopendir(fd) : nullptr;
    if (!dir) {
        if (fd >= 0)
            ::close(fd);
        return {};
    }
    QStringList names;
    while (const dirent *e = ::readdir(dir)) {
        struct stat st;
        if (::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)) &&
            std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            names << QFile::decodeName(e->d_name);
    }
    ::closedir(dir);
    names.sort();
    return names;
}

bool FolderReferenceFiles::writeNew(const QString &path, const QString &like,
                                    const QByteArray &bytes, QString *why)
{
    QByteArray name, likeName;
    const UniqueFd dir(openParent(m_root, path, &name));
    const UniqueFd likeDir(openParent(m_root, like, &likeName));
    struct stat st;
    if (dir.get() < 0 || likeDir.get() < 0 ||
        ::fstatat(likeDir.get(), likeName.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        *why = reason(errno);
        return false;
    }
    const QByteArray temporary = name + ".partwise-new";
    ::unlinkat(dir.get(), temporary.constData(), 0); // a stopped run's, never followed
    const UniqueFd fd(::openat(dir.get(), temporary.constData(),
                               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.get() < 0 || !writeAll(fd.get(), bytes) ||
        ::fchown(fd.get(), st.st_uid, st.st_gid) != 0 ||
        ::fchmod(fd.get(), st.st_mode & 0777) != 0 || ::fsync(fd.get()) != 0 ||
        ::renameat(dir.get(), temporary.constData(), dir.get(), name.constData()) != 0 ||
        ::fsync(dir.get()) != 0) {
        *why = reason(errno);
        return false;
    }
    return true;
}

bool FolderReferenceFiles::rewrite(const QString &path, const QByteArray &bytes, QString *why)
{
    QByteArray name;
    const UniqueFd dir(openParent(m_root, path, &name));
    const UniqueFd fd(dir.get() < 0
                          ? -1
                          : ::openat(dir.get(), name.constData(),
                                     O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    struct stat st;
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) {
        *why = reason(errno);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = QStringLiteral("not a regular file");
        return false;
    }
    if (!writeAll(fd.get(), bytes) || ::ftruncate(fd.get(), off_t(bytes.size())) != 0 ||
        ::fsync(fd.get()) != 0) {
        *why = reason(errno);
        return false;
    }
    return true;
}

} // namespace partwise
