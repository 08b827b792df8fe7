// Write, fsync, rename, fsync the folder: see atomicfile.h.

#include "base/atomicfile.h"

#include "base/nofollowfile.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

// Every byte or errno: a short write (a full disk, a file size limit) ends in the call that fails.
bool writeAll(int fd, const QByteArray &data)
{
    const char *next = data.constData();
    for (qsizetype left = data.size(); left > 0;) {
        const ssize_t written = ::write(fd, next, size_t(left));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0) {
            if (written == 0)
                errno = EIO;
            return false;
        }
        next += written;
        left -= written;
    }
    return true;
}

} // namespace

AtomicWrite writeFileAtomically(const QString &path, const QByteArray &data)
{
    AtomicWrite result;
    result.tempPath = path + QStringLiteral(".new");
    const QByteArray temp = QFile::encodeName(result.tempPath);
    // Created anew, never through a link planted under the temporary name.
    const int fd = createFileExclusively(result.tempPath);
    if (fd < 0 || !writeAll(fd, data) || ::fsync(fd) != 0) {
        result.failure = AtomicWrite::Failure::Write;
        result.reason = QString::fromLocal8Bit(std::strerror(errno));
        if (fd >= 0) {
            ::close(fd);
            ::unlink(temp.constData()); // ours (created exclusively), and only part written
        }
        return result;
    }
    if (::close(fd) != 0) {
        result.failure = AtomicWrite::Failure::Write;
        result.reason = QString::fromLocal8Bit(std::strerror(errno));
        ::unlink(temp.constData());
        return result;
    }
    if (::rename(temp.constData(), QFile::encodeName(path).constData()) != 0) {
        result.failure = AtomicWrite::Failure::Rename;
        result.reason = QString::fromLocal8Bit(std::strerror(errno));
        return result;
    }
    if (!syncFolderOf(path)) {
        result.failure = AtomicWrite::Failure::SyncFolder;
        result.reason = QString::fromLocal8Bit(std::strerror(errno));
    }
    return result;
}

bool syncFolderOf(const QString &path)
{
    const QByteArray folder = QFile::encodeName(QFileInfo(path).absolutePath());
    const int fd = ::open(folder.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::fsync(fd) == 0;
    const int code = errno; // for the caller's message, whatever close() does to errno
    ::close(fd);
    errno = code;
    return ok;
}

} // namespace partwise
