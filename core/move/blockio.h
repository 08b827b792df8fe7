#pragma once

#include <QString>

#include <cerrno>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace partwise::move {

// Raw positioned I/O on a device or image file. The mover and its journal only talk to this
// interface, so tests can wrap it to inject read/write errors or a kill at a chosen offset.
// Every call returns 0 on success or an errno value.
class BlockIo
{
public:
    enum class Access { ReadOnly, ReadWrite };

    virtual ~BlockIo() = default;

    virtual int readAt(void *buffer, std::size_t length, std::uint64_t offset) = 0;
    virtual int writeAt(const void *buffer, std::size_t length, std::uint64_t offset) = 0;
    // Makes every completed write durable (fdatasync): the ordering points of the journal.
    virtual int sync() = 0;
    virtual std::uint64_t size() const = 0;
    virtual QString path() const = 0;
    // Gives `length` bytes at `offset` back as a hole that reads as zeros (an image file's
    // sparse range); EOPNOTSUPP where there is no such thing (a block device, a test double).
    virtual int punchHole(std::uint64_t offset, std::uint64_t length)
    {
        (void)offset;
        (void)length;
        return EOPNOTSUPP;
    }
    // Tells the device that `length` bytes at `offset` hold nothing worth keeping: a hole in an
    // image file, a discard (TRIM, BLKDISCARD) on a block device. What they read back afterwards
    // is not promised (a drive may return the old bytes, zeros or anything); EOPNOTSUPP where
    // the target cannot.
    virtual int discard(std::uint64_t offset, std::uint64_t length)
    {
        (void)offset;
        (void)length;
        return EOPNOTSUPP;
    }
};

// Writes `buffer` at `offset`; a buffer of zeros only is punched as a hole where the target
// can (a sparse image stays sparse: a move of a mostly empty partition must not fill the
// image with written zeros). Same durability as a write: the next sync() makes it stick.
int writeOrPunch(BlockIo &io, const void *buffer, std::size_t length, std::uint64_t offset);

// Opens a device or file. O_DIRECT is tried first (no page-cache copy, no cache pollution on a
// multi-GiB move); filesystems that reject it (EINVAL, e.g. tmpfs) fall back to buffered I/O,
// where sync() still gives the durability the journal needs. A read-only target (EROFS, EACCES,
// EPERM, or a block device flagged read-only) is refused when opened for writing.
std::unique_ptr<BlockIo> openFileBlockIo(const QString &path, BlockIo::Access access, int *error);
// The same, opening `openName` (a disk's /proc/self/fd entry, so the file a job opened once at its
// entry rather than whatever its name leads to now) and calling it `shownPath` in messages.
std::unique_ptr<BlockIo> openFileBlockIoThrough(const QString &openName, const QString &shownPath,
                                                BlockIo::Access access, int *error);

// Reads `length` bytes with reads of at most `piece` bytes. The mover reads ahead on the disk it
// writes to: a sync issued meanwhile waits behind the reads already queued, so they are kept
// short (measured on a loop device: 32 MiB reads made a 1 GiB move 1.2 times slower than 4 MiB
// reads). Returns 0 or an errno value.
constexpr std::uint64_t kReadAheadPiece = 4ULL << 20;
int readInPieces(BlockIo &io, unsigned char *buffer, std::uint64_t length, std::uint64_t offset,
                 std::uint64_t piece = kReadAheadPiece);

// How the mover opens files; tests replace it to wrap the real I/O in a fault injector.
using BlockIoOpener =
    std::function<std::unique_ptr<BlockIo>(const QString &path, BlockIo::Access, int *error)>;

} // namespace partwise::move
