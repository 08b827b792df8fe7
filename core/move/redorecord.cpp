#include "move/redorecord.h"

#include "base/atomicfile.h"
#include "base/positionedio.h"
#include "move/checksum.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace partwise::move {

namespace {

constexpr char kMagic[8] = {'P', 'W', 'R', 'E', 'D', 'O', '1', '\0'};
constexpr char kCommit[8] = {'P', 'W', 'C', 'O', 'M', 'M', 'I', 'T'};
constexpr quint32 kVersion = 1;
constexpr qint64 kHeaderBytes = 64;
constexpr qint64 kHeadBytes = 24;
constexpr qint64 kCommitBytes = 32;

void put64(char *at, quint64 v)
{
    for (int i = 0; i < 8; ++i)
        at[i] = char((v >> (8 * i)) & 0xff);
}

quint64 get64(const char *at)
{
    quint64 v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | quint8(at[i]);
    return v;
}

void put32(char *at, quint32 v)
{
    for (int i = 0; i < 4; ++i)
        at[i] = char((v >> (8 * i)) & 0xff);
}

quint32 get32(const char *at)
{
    quint32 v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | quint8(at[i]);
    return v;
}

bool writeAll(int fd, const char *data, qint64 length)
{
    while (length > 0) {
        const ssize_t n = ::write(fd, data, size_t(length));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n, length -= n;
    }
    return true;
}

bool readAll(int fd, char *data, qint64 length, qint64 offset)
{
    return readFullAt(fd, data, length, offset) == length;
}

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// The record open for reading, never through a link, only a regular file, and only one this
// user wrote: a record someone else put in the journal's folder is not ours to apply.
int openRecord(const QString &path, qint64 *size)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st
    {
    };
    if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid())) {
        ::close(fd);
        errno = EINVAL;
        return -1;
    }
    *size = fd >= 0 ? st.st_size : 0;
    return fd;
}

// Walks a record: validates the header against `expected`, every block head, and the commit
// marker; with `write`, also every block's data, handing each to it. `verifyData` alone checks
// the data without writing.
RedoCheck walk(int fd, qint64 size, const RedoRegion &expected, bool verifyData,
               const RedoBlockWriter &write)
{
    RedoCheck c;
    auto torn = [&](const QString &why) {
        c.state = RedoState::Torn;
        c.problem = why;
        return c;
    };
    char header[kHeaderBytes];
    if (size < kHeaderBytes + kCommitBytes || !readAll(fd, header, kHeaderBytes, 0))
        return torn(QStringLiteral("it ends before its commit marker"));
    if (std::memcmp(header, kMagic, 8) != 0 || get64(header + 56) != checksum64(header, 56))
        return torn(QStringLiteral("its header is incomplete"));
    const quint32 version = get32(header + 8);
    const quint32 blockBytes = get32(header + 12);
    RedoRegion region{qint64(get64(header + 16)), qint64(get64(header + 24)), get64(header + 40)};
    const quint64 count = get64(header + 32);
    const quint64 maxBlocks = quint64(expected.bytes + kRedoBlockBytes - 1) / kRedoBlockBytes;
    if (version != kVersion || blockBytes != kRedoBlockBytes || !(region == expected) ||
        count > maxBlocks) {
        c.state = RedoState::Other;
        c.problem = QStringLiteral("it belongs to another step or place");
        return c;
    }
    std::vector<char> data(kRedoBlockBytes);
    std::vector<char> heads;
    qint64 at = kHeaderBytes;
    qint64 previousEnd = 0;
    for (quint64 i = 0; i < count; ++i) {
        char head[kHeadBytes];
        if (at + kHeadBytes > size || !readAll(fd, head, kHeadBytes, at))
            return torn(QStringLiteral("it ends inside block %1").arg(i));
        const quint64 offset = get64(head);
        const quint64 length = get64(head + 8);
        // Whole blocks of the region, in increasing order: nothing can land outside it.
        if (offset % kRedoBlockBytes != 0 || offset >= quint64(expected.bytes) ||
            qint64(offset) < previousEnd ||
            length != quint64(std::min<qint64>(kRedoBlockBytes, expected.bytes - qint64(offset))))
            return torn(QStringLiteral("block %1 lies outside the filesystem").arg(i));
        at += kHeadBytes;
        if (at + qint64(length) > size)
            return torn(QStringLiteral("it ends inside block %1").arg(i));
        if (verifyData || write) {
            if (!readAll(fd, data.data(), qint64(length), at))
                return torn(QStringLiteral("block %1 cannot be read").arg(i));
            if (checksum64(data.data(), length) != get64(head + 16)) {
                c.state = RedoState::Damaged;
                c.problem = QStringLiteral("block %1 does not match its checksum").arg(i);
                return c;
            }
            if (write && !write(expected.offset + qint64(offset), data.data(), qint64(length))) {
                c.state = RedoState::Damaged;
                c.problem = QStringLiteral("writing block %1 to the disk failed: %2")
                                .arg(i)
                                .arg(systemError());
                return c;
            }
        }
        heads.insert(heads.end(), head, head + kHeadBytes);
        previousEnd = qint64(offset + length);
        at += qint64(length);
    }
    char commit[kCommitBytes];
    if (at + kCommitBytes != size || !readAll(fd, commit, kCommitBytes, at) ||
        std::memcmp(commit, kCommit, 8) != 0 || get64(commit + 8) != count ||
        get64(commit + 16) != checksum64(heads.data(), heads.size()) ||
        get64(commit + 24) != checksum64(commit, 24))
        return torn(QStringLiteral("its commit marker is missing or incomplete"));
    c.state = RedoState::Committed;
    c.blocks = qint64(count);
    return c;
}

bool failWith(QString *error, const QString &message, int fd, const QString &path)
{
    *error = message;
    if (fd >= 0)
        ::close(fd);
    QFile::remove(path);
    return false;
}

} // namespace

bool writeRedoRecord(const QString &path, const RedoRegion &region, qint64 count,
                     const RedoBlockSource &blocks, QString *error)
{
    const QByteArray name = QFile::encodeName(path);
    if (::unlink(name.constData()) != 0 && errno != ENOENT)
        return failWith(error, QStringLiteral("Cannot replace %1: %2").arg(path, systemError()), -1,
                        QString());
    const int fd =
        ::open(name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return failWith(error, QStringLiteral("Cannot create %1: %2").arg(path, systemError()), -1,
                        QString());
    char header[kHeaderBytes] = {};
    std::memcpy(header, kMagic, 8);
    put32(header + 8, kVersion);
    put32(header + 12, quint32(kRedoBlockBytes));
    put64(header + 16, quint64(region.offset));
    put64(header + 24, quint64(region.bytes));
    put64(header + 32, quint64(count));
    put64(header + 40, region.tag);
    put64(header + 56, checksum64(header, 56));
    const QString writeFailed = QStringLiteral("Cannot write %1: %2");
    if (!writeAll(fd, header, kHeaderBytes))
        return failWith(error, writeFailed.arg(path, systemError()), fd, path);
    std::vector<char> data(kRedoBlockBytes);
    std::vector<char> heads;
    for (qint64 i = 0; i < count; ++i) {
        qint64 offset = 0;
        qint64 length = 0;
        if (!blocks(i, &offset, &length, data.data()) || length <= 0 || length > kRedoBlockBytes)
            return failWith(
                error, QStringLiteral("Cannot read the tool's changed block %1.").arg(i), fd, path);
        char head[kHeadBytes];
        put64(head, quint64(offset));
        put64(head + 8, quint64(length));
        put64(head + 16, checksum64(data.data(), size_t(length)));
        heads.insert(heads.end(), head, head + kHeadBytes);
        if (!writeAll(fd, head, kHeadBytes) || !writeAll(fd, data.data(), length))
            return failWith(error, writeFailed.arg(path, systemError()), fd, path);
    }
    // The blocks reach the disk before the marker that says they are whole.
    if (::fdatasync(fd) != 0)
        return failWith(error, writeFailed.arg(path, systemError()), fd, path);
    char commit[kCommitBytes];
    std::memcpy(commit, kCommit, 8);
    put64(commit + 8, quint64(count));
    put64(commit + 16, checksum64(heads.data(), heads.size()));
    put64(commit + 24, checksum64(commit, 24));
    if (!writeAll(fd, commit, kCommitBytes) || ::fsync(fd) != 0)
        return failWith(error, writeFailed.arg(path, systemError()), fd, path);
    ::close(fd);
    if (!syncFolderOf(path))
        return failWith(error, QStringLiteral("Cannot sync the folder of %1.").arg(path), -1, path);
    return true;
}

RedoCheck checkRedoRecord(const QString &path, const RedoRegion &expected)
{
    qint64 size = 0;
    const int fd = openRecord(path, &size);
    if (fd < 0) {
        RedoCheck c;
        if (errno != ENOENT) {
            c.state = RedoState::Damaged;
            c.problem = QStringLiteral("it cannot be opened: %1").arg(systemError());
        }
        return c;
    }
    const RedoCheck c = walk(fd, size, expected, true, {});
    ::close(fd);
    return c;
}

bool applyRedoRecord(const QString &path, const RedoRegion &expected, const RedoBlockWriter &write,
                     QString *error)
{
    qint64 size = 0;
    const int fd = openRecord(path, &size);
    if (fd < 0) {
        *error = QStringLiteral("Cannot open %1: %2").arg(path, systemError());
        return false;
    }
    // Every block is checked before the first is written, then checked again as it is written.
    RedoCheck c = walk(fd, size, expected, true, {});
    if (c.state == RedoState::Committed)
        c = walk(fd, size, expected, true, write);
    ::close(fd);
    if (c.state != RedoState::Committed)
        *error = QStringLiteral("The redo record %1 cannot be applied: %2.").arg(path, c.problem);
    return c.state == RedoState::Committed;
}

bool removeRedoRecord(const QString &path)
{
    if (::unlink(QFile::encodeName(path).constData()) != 0 && errno != ENOENT)
        return false;
    return syncFolderOf(path);
}

bool removeRedoRecordsOf(const QString &journalPath)
{
    const QFileInfo journal(journalPath);
    const QDir folder = journal.absoluteDir();
    // Compared as text, not as a name filter: a journal's name may hold '*', '?' or '['.
    QStringList names;
    for (const QString &name : folder.entryList(QDir::Files | QDir::Hidden | QDir::NoSymLinks))
        if (name.startsWith(journal.fileName() + QLatin1Char('.')) &&
            name.endsWith(QLatin1String(".redo")))
            names << name;
    bool ok = true;
    for (const QString &name : names) {
        if (::unlink(QFile::encodeName(folder.filePath(name)).constData()) != 0 && errno != ENOENT)
            ok = false;
    }
    return (names.isEmpty() || syncFolderOf(journalPath)) && ok;
}

} // namespace partwise::move
