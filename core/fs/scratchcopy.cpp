#include "fs/scratchcopy.h"

#include "base/humansize.h"

#include <QFile>
#include <QList>
#include <QPair>

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

// The parts of [offset, offset + length) that hold data, holes left out; the whole range where
// the filesystem cannot tell (no SEEK_DATA).
QList<QPair<qint64, qint64>> dataRanges(int fd, qint64 offset, qint64 length)
{
    const qint64 stop = offset + length;
    QList<QPair<qint64, qint64>> ranges;
    for (qint64 at = offset; at < stop;) {
        const off_t data = ::lseek(fd, at, SEEK_DATA);
        if (data < 0 && errno == ENXIO)
            break; // no data past `at`
        if (data < 0)
            return {{offset, stop}};
        if (data >= stop)
            break;
        const off_t hole = ::lseek(fd, data, SEEK_HOLE);
        const qint64 end = std::min<qint64>(hole < 0 ? stop : hole, stop);
        ranges.append({data, end});
        at = end;
    }
    return ranges;
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
    const QList<QPair<qint64, qint64>> ranges = dataRanges(from, offset, length);
    qint64 data = 0;
    for (const auto &[begin, end] : ranges)
        data += end - begin;
    if (data > kMaxScratchBytes) {
        ::close(from);
        m_error = QStringLiteral("the partition holds %1 of data, too much to copy for its "
                                 "tools")
                      .arg(humanSize(data));
        return;
    }
    const int to = ::open(QFile::encodeName(m_path).constData(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    const bool copied = to >= 0 && ::ftruncate(to, length) == 0 &&
                        copyRanges(from, to, offset, ranges) && ::fsync(to) == 0;
    if (!copied && m_error.isEmpty())
        m_error = QStringLiteral("Cannot copy the partition for its tools: %1").arg(systemError());
    if (to >= 0)
        ::close(to);
    ::close(from);
}

bool ScratchCopy::copyRanges(int from, int to, qint64 offset,
                             const QList<QPair<qint64, qint64>> &ranges)
{
    for (const auto &[begin, end] : ranges) {
        loff_t in = begin;
        loff_t out = begin - offset;
        while (in < end) {
            const ssize_t n = ::copy_file_range(from, &in, to, &out, size_t(end - in), 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
        }
    }
    return true;
}

} // namespace partwise
