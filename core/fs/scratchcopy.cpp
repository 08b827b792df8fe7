#include "fs/scratchcopy.h"

#include "base/humansize.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// The bytes of [offset, offset + length) that hold data (not holes), or -1.
qint64 dataBytes(int fd, qint64 offset, qint64 length)
{
    qint64 total = 0;
    for (qint64 at = offset; at < offset + length;) {
        const off_t data = ::lseek(fd, at, SEEK_DATA);
        if (data < 0)
            return errno == ENXIO ? total : -1; // ENXIO: no data past `at`
        if (data >= offset + length)
            break;
        const off_t hole = ::lseek(fd, data, SEEK_HOLE);
        const qint64 end = std::min<qint64>(hole < 0 ? offset + length : hole, offset + length);
        total += end - data;
        at = end;
    }
    return total;
}

} // namespace

ScratchCopy::ScratchCopy(const QString &image, qint64 offset, qint64 length)
{
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("Cannot create a temporary folder: %1").arg(m_dir.errorString());
        return;
    }
    m_path = m_dir.filePath(QStringLiteral("partition.img"));
    const int from = ::open(QFile::encodeName(image).constData(), O_RDONLY | O_CLOEXEC);
    if (from < 0) {
        m_error = QStringLiteral("Cannot read %1: %2").arg(image, systemError());
        return;
    }
    const qint64 data = dataBytes(from, offset, length);
    if (data > kMaxScratchBytes) {
        ::close(from);
        m_error = QStringLiteral("the partition holds %1 of data, too much to copy for its "
                                 "tools without a loop device (which needs root)")
                      .arg(humanSize(data));
        return;
    }
    const int to = ::open(QFile::encodeName(m_path).constData(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    const bool copied = to >= 0 && ::ftruncate(to, length) == 0 &&
                        copyData(from, to, offset, length) && ::fsync(to) == 0;
    if (!copied && m_error.isEmpty())
        m_error = QStringLiteral("Cannot copy the partition for its tools: %1").arg(systemError());
    if (to >= 0)
        ::close(to);
    ::close(from);
}

bool ScratchCopy::copyData(int from, int to, qint64 offset, qint64 length)
{
    for (qint64 at = offset; at < offset + length;) {
        off_t data = ::lseek(from, at, SEEK_DATA);
        if (data < 0 && errno == ENXIO)
            return true;
        if (data < 0)
            data = at; // no SEEK_DATA here: copy everything
        if (data >= offset + length)
            return true;
        const off_t hole = ::lseek(from, data, SEEK_HOLE);
        const qint64 end = std::min<qint64>(hole < 0 ? offset + length : hole, offset + length);
        loff_t in = data;
        loff_t out = data - offset;
        while (in < end) {
            const ssize_t n = ::copy_file_range(from, &in, to, &out, size_t(end - in), 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
        }
        at = end;
    }
    return true;
}

} // namespace partwise
