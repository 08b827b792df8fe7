#include "device/backingfile.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

QString systemError(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a folder");
    if (S_ISFIFO(mode))
        return QStringLiteral("a named pipe (FIFO)");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

// Empty when `st` is something a loop device can sit on.
QString typeProblem(const struct stat &st, const QString &name)
{
    if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
        return QString();
    return QStringLiteral("%1 is %2, not a disk image file or a block device: a loop device "
                          "cannot be put over it.")
        .arg(name, kindOf(st.st_mode));
}

QString accessProblem(int fd, bool readOnly, const QString &name)
{
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0)
        return QStringLiteral("Cannot examine %1: %2.").arg(name, systemError(errno));
    if (flags & O_PATH)
        return QStringLiteral("%1 is open only as a path; a loop device needs it open for reading.")
            .arg(name);
    if ((flags & O_ACCMODE) == O_WRONLY)
        return QStringLiteral("%1 is open for writing only; a loop device must read it.").arg(name);
    if (!readOnly && (flags & O_ACCMODE) == O_RDONLY)
        return QStringLiteral("%1 is open read-only; a writable loop device needs it open for "
                              "writing.")
            .arg(name);
    return QString();
}

// O_PATH opens nothing: a FIFO opened for reading would block until a writer came, and a
// character device's driver would run its open (a watchdog starts counting). The type is
// judged on this descriptor before anything is really opened.
int openPathOnly(const QString &path, QString *error)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_PATH | O_CLOEXEC);
    if (fd < 0)
        *error = errno == ENOENT
                     ? QStringLiteral("%1 does not exist.").arg(path)
                     : QStringLiteral("Cannot open %1: %2.").arg(path, systemError(errno));
    return fd;
}

// Opens the very inode judged on `pathFd` (not the name again, which may point elsewhere by
// now) with the access the loop device needs.
int reopen(int pathFd, const QString &path, bool readOnly, QString *error)
{
    const QByteArray self = "/proc/self/fd/" + QByteArray::number(pathFd);
    const int fd = ::open(self.constData(), (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC);
    if (fd < 0)
        *error = QStringLiteral("Cannot open %1 for %2: %3.")
                     .arg(path, readOnly ? QStringLiteral("reading") : QStringLiteral("writing"),
                          systemError(errno));
    return fd;
}

} // namespace

int openBackingFile(const QString &path, bool readOnly, QString *error)
{
    const int pathFd = openPathOnly(path, error);
    if (pathFd < 0)
        return -1;
    struct stat st
    {
    };
    if (::fstat(pathFd, &st) != 0)
        *error = QStringLiteral("Cannot examine %1: %2.").arg(path, systemError(errno));
    else
        *error = typeProblem(st, path);
    const int fd = error->isEmpty() ? reopen(pathFd, path, readOnly, error) : -1;
    ::close(pathFd);
    return fd;
}

QString unusableBacking(int fd, bool readOnly, const QString &name)
{
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0)
        return QStringLiteral("Cannot examine %1: %2.").arg(name, systemError(errno));
    if (const QString problem = typeProblem(st, name); !problem.isEmpty())
        return problem;
    return accessProblem(fd, readOnly, name);
}

} // namespace partwise
