#include "fs/imageregion.h"

#include "base/positionedio.h"
#include "base/uniquefd.h"

#include <QByteArray>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace partwise {

namespace {

QString errnoText(const QString &what)
{
    return QStringLiteral("%1: %2").arg(what, QString::fromLocal8Bit(strerror(errno)));
}

// `path` opened close-on-exec; invalid when the open failed (errno says why).
UniqueFd openFile(const QString &path, int flags)
{
    return UniqueFd(::open(path.toLocal8Bit().constData(), flags | O_CLOEXEC));
}

} // namespace

bool zeroFileRange(const QString &path, qint64 offset, qint64 length, QString *error)
{
    const UniqueFd fd = openFile(path, O_RDWR);
    if (fd.get() < 0) {
        *error = errnoText(QStringLiteral("Cannot open %1").arg(path));
        return false;
    }
    if (::fallocate(fd.get(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, length) == 0)
        return ::fsync(fd.get()) == 0;
    const std::vector<char> zeros(1 << 20, 0);
    for (qint64 done = 0; done < length;) {
        const qint64 n = std::min<qint64>(qint64(zeros.size()), length - done);
        if (!writeFullAt(fd.get(), zeros.data(), n, offset + done)) {
            *error = errnoText(QStringLiteral("Cannot write zeros to %1").arg(path));
            return false;
        }
        done += n;
    }
    return ::fsync(fd.get()) == 0;
}

bool copySparseInto(const QString &source, const QString &target, qint64 targetOffset,
                    QString *error)
{
    const UniqueFd in = openFile(source, O_RDONLY);
    const UniqueFd out = openFile(target, O_RDWR);
    if (in.get() < 0 || out.get() < 0) {
        *error = errnoText(QStringLiteral("Cannot open %1 or %2").arg(source, target));
        return false;
    }
    std::vector<char> buffer(4 << 20);
    off_t pos = 0;
    for (;;) {
        const off_t dataStart = ::lseek(in.get(), pos, SEEK_DATA);
        if (dataStart < 0)
            break; // ENXIO: no more data
        const off_t dataEnd = ::lseek(in.get(), dataStart, SEEK_HOLE);
        for (off_t p = dataStart; p < dataEnd;) {
            const qint64 n = readFullAt(in.get(), buffer.data(),
                                        std::min<qint64>(qint64(buffer.size()), dataEnd - p), p);
            if (n <= 0 || !writeFullAt(out.get(), buffer.data(), n, targetOffset + p)) {
                *error =
                    errnoText(QStringLiteral("Copying the new filesystem into %1").arg(target));
                return false;
            }
            p += n;
        }
        pos = dataEnd;
    }
    if (::fsync(out.get()) != 0) {
        *error = errnoText(QStringLiteral("Flushing %1").arg(target));
        return false;
    }
    return true;
}

} // namespace partwise
