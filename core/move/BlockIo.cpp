#include "BlockIo.h"

#include <QFile>

#include <cerrno>
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
    FileBlockIo(QString path, int fd, int flags, bool direct)
        : m_path(std::move(path)), m_fd(fd), m_flags(flags), m_direct(direct)
    {
    }
    ~FileBlockIo() override { ::close(m_fd); }

    int readAt(void *buffer, std::size_t length, std::uint64_t offset) override
    {
        int error = transfer(buffer, length, offset, false);
        if (error == EINVAL && m_direct && dropDirect() == 0)
            error = transfer(buffer, length, offset, false);
        return error;
    }

    int writeAt(const void *buffer, std::size_t length, std::uint64_t offset) override
    {
        int error = transfer(const_cast<void *>(buffer), length, offset, true);
        if (error == EINVAL && m_direct && dropDirect() == 0)
            error = transfer(const_cast<void *>(buffer), length, offset, true);
        return error;
    }

    int sync() override { return ::fdatasync(m_fd) == 0 ? 0 : errno; }

    std::uint64_t size() const override
    {
        struct stat st;
        if (::fstat(m_fd, &st) != 0)
            return 0;
        if (S_ISBLK(st.st_mode)) {
            std::uint64_t bytes = 0;
            return ::ioctl(m_fd, BLKGETSIZE64, &bytes) == 0 ? bytes : 0;
        }
        return static_cast<std::uint64_t>(st.st_size);
    }

    QString path() const override { return m_path; }

private:
    int transfer(void *buffer, std::size_t length, std::uint64_t offset, bool write)
    {
        auto *p = static_cast<unsigned char *>(buffer);
        while (length > 0) {
            const ssize_t done = write ? ::pwrite(m_fd, p, length, static_cast<off_t>(offset))
                                       : ::pread(m_fd, p, length, static_cast<off_t>(offset));
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

    // An unaligned request on an O_DIRECT descriptor fails with EINVAL before any byte moves,
    // so switching to a buffered descriptor and retrying is safe.
    int dropDirect()
    {
        const int fd = ::open(QFile::encodeName(m_path).constData(), m_flags & ~O_DIRECT);
        if (fd < 0)
            return errno;
        ::close(m_fd);
        m_fd = fd;
        m_direct = false;
        return 0;
    }

    QString m_path;
    int m_fd;
    int m_flags;
    bool m_direct;
};

} // namespace

std::unique_ptr<BlockIo> openFileBlockIo(const QString &path, BlockIo::Access access, int *error)
{
    const QByteArray name = QFile::encodeName(path);
    const int baseFlags = O_CLOEXEC | (access == BlockIo::Access::ReadWrite ? O_RDWR : O_RDONLY);
    bool direct = true;
    int fd = ::open(name.constData(), baseFlags | O_DIRECT);
    if (fd < 0 && errno == EINVAL) {
        direct = false;
        fd = ::open(name.constData(), baseFlags);
    }
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
    *error = 0;
    return std::make_unique<FileBlockIo>(path, fd, baseFlags | (direct ? O_DIRECT : 0), direct);
}

} // namespace partwise::move
