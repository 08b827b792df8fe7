#include "blockio.h"

#include <QFile>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise::move {

namespace {

class FileBlockIo : public BlockIo
{
public:
    // `directFd` is -1 when O_DIRECT is not available for this file.
    FileBlockIo(QString path, int bufferedFd, int directFd)
        : m_path(std::move(path)), m_bufferedFd(bufferedFd), m_directFd(directFd),
          m_direct(directFd >= 0)
    {
    }
    ~FileBlockIo() override
    {
        ::close(m_bufferedFd);
        if (m_directFd >= 0)
            ::close(m_directFd);
    }

    int readAt(void *buffer, std::size_t length, std::uint64_t offset) override
    {
        return transferWithFallback(buffer, length, offset, false);
    }

    int writeAt(const void *buffer, std::size_t length, std::uint64_t offset) override
    {
        return transferWithFallback(const_cast<void *>(buffer), length, offset, true);
    }

    // The buffered descriptor's fdatasync covers the direct one too: both name the same file.
    int sync() override { return ::fdatasync(m_bufferedFd) == 0 ? 0 : errno; }

    std::uint64_t size() const override
    {
        struct stat st;
        if (::fstat(m_bufferedFd, &st) != 0)
            return 0;
        if (S_ISBLK(st.st_mode)) {
            std::uint64_t bytes = 0;
            return ::ioctl(m_bufferedFd, BLKGETSIZE64, &bytes) == 0 ? bytes : 0;
        }
        return static_cast<std::uint64_t>(st.st_size);
    }

    QString path() const override { return m_path; }

    int punchHole(std::uint64_t offset, std::uint64_t length) override
    {
        struct stat st;
        if (::fstat(m_bufferedFd, &st) != 0 || !S_ISREG(st.st_mode))
            return EOPNOTSUPP;
        return ::fallocate(m_bufferedFd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                           static_cast<off_t>(offset), static_cast<off_t>(length)) == 0
                   ? 0
                   : errno;
    }

    int discard(std::uint64_t offset, std::uint64_t length) override
    {
        struct stat st;
        if (::fstat(m_bufferedFd, &st) != 0)
            return errno;
        if (S_ISREG(st.st_mode))
            return punchHole(offset, length);
        if (!S_ISBLK(st.st_mode))
            return EOPNOTSUPP;
        std::uint64_t range[2] = {offset, length};
        return ::ioctl(m_bufferedFd, BLKDISCARD, range) == 0 ? 0 : errno;
    }

private:
    // An unaligned request on an O_DIRECT descriptor fails with EINVAL before any byte moves,
    // so it is retried buffered, and buffered I/O is kept from then on. Both descriptors stay
    // open, so a read-ahead on another thread never sees a descriptor closed under it.
    int transferWithFallback(void *buffer, std::size_t length, std::uint64_t offset, bool write)
    {
        if (m_direct.load(std::memory_order_relaxed)) {
            const int error = transfer(m_directFd, buffer, length, offset, write);
            if (error != EINVAL)
                return error;
            m_direct = false;
        }
        return transfer(m_bufferedFd, buffer, length, offset, write);
    }

    static int transfer(int fd, void *buffer, std::size_t length, std::uint64_t offset, bool write)
    {
        auto *p = static_cast<unsigned char *>(buffer);
        while (length > 0) {
            const ssize_t done = write ? ::pwrite(fd, p, length, static_cast<off_t>(offset))
                                       : ::pread(fd, p, length, static_cast<off_t>(offset));
            if (done < 0) {
                if (errno == EINTR)
                    continue;
                return errno;
            }
            if (done == 0)
                return write ? ENOSPC : EIO; // past the end: the range check failed to catch it
            p += done;
            length -= static_cast<std::size_t>(done);
            offset += static_cast<std::uint64_t>(done);
        }
        return 0;
    }

    QString m_path;
    int m_bufferedFd;
    int m_directFd;
    std::atomic<bool> m_direct;
};

bool allZeros(const void *buffer, std::size_t length)
{
    const auto *p = static_cast<const unsigned char *>(buffer);
    return length > 0 && p[0] == 0 && std::memcmp(p, p + 1, length - 1) == 0;
}

} // namespace

int writeOrPunch(BlockIo &io, const void *buffer, std::size_t length, std::uint64_t offset)
{
    if (allZeros(buffer, length)) {
        const int code = io.punchHole(offset, length);
        if (code != EOPNOTSUPP && code != ENOSYS)
            return code;
    }
    return io.writeAt(buffer, length, offset);
}

int readInPieces(BlockIo &io, unsigned char *buffer, std::uint64_t length, std::uint64_t offset,
                 std::uint64_t piece)
{
    for (std::uint64_t done = 0; done < length;) {
        const std::uint64_t now = std::min(piece, length - done);
        if (const int code = io.readAt(buffer + done, now, offset + done))
            return code;
        done += now;
    }
    return 0;
}

std::unique_ptr<BlockIo> openFileBlockIo(const QString &path, BlockIo::Access access, int *error)
{
    return openFileBlockIoThrough(path, path, access, error);
}

std::unique_ptr<BlockIo> openFileBlockIoThrough(const QString &openName, const QString &path,
                                                BlockIo::Access access, int *error)
{
    const QByteArray name = QFile::encodeName(openName);
    const int flags = O_CLOEXEC | (access == BlockIo::Access::ReadWrite ? O_RDWR : O_RDONLY);
    const int fd = ::open(name.constData(), flags);
    if (fd < 0) {
        *error = errno;
        return nullptr;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        *error = errno;
        ::close(fd);
        return nullptr;
    }
    if (access == BlockIo::Access::ReadWrite && S_ISBLK(st.st_mode)) {
        // A read-only block device may still open O_RDWR; its writes would fail one by one.
        int readOnly = 0;
        if (::ioctl(fd, BLKROGET, &readOnly) == 0 && readOnly) {
            *error = EROFS;
            ::close(fd);
            return nullptr;
        }
    }
    const int directFd = ::open(name.constData(), flags | O_DIRECT); // -1 where unsupported
    *error = 0;
    return std::make_unique<FileBlockIo>(path, fd, directFd);
}

} // namespace partwise::move
