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

AtomicWrite writeFileAtomically(const QString &path, const QByteArray &data)
{
    AtomicWrite result;
    result.tempPath = path + QStringLiteral(".new");
    {
        // Created anew, never through a link planted under the temporary name.
        const int fd = createFileExclusively(result.tempPath);
        QFile f;
        if (fd < 0 || !f.open(fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle) ||
            f.write(data) != data.size() || !f.flush() || ::fsync(f.handle()) != 0) {
            result.failure = AtomicWrite::Failure::Write;
            result.reason = fd < 0 ? QString::fromLocal8Bit(std::strerror(errno)) : f.errorString();
            if (fd >= 0 && !f.isOpen())
                ::close(fd);
            return result;
        }
    }
    if (::rename(QFile::encodeName(result.tempPath).constData(),
                 QFile::encodeName(path).constData()) != 0) {
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
