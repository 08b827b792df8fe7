#pragma once

// A copy-on-write view of a disk or image for a filesystem tool (resize2fs, ntfsresize,
// libparted's FAT resizer…): a file whose reads come from the disk and whose writes are kept
// aside, so the disk stays untouched while the tool runs. What the tool changed is then
// journaled and applied (fs/journaledresize.h): a power cut in the middle of the tool costs
// nothing, and one in the middle of applying is redone from the journal.
//
// The file presents the disk's bytes [0, windowBytes), so a filesystem keeps its place on its
// disk (FAT's boot sector records it); only [writableOffset, writableOffset + writableBytes), the
// filesystem's partition, takes writes: a write anywhere else fails with EIO and is never kept.
// Written blocks of kBlockBytes (counted from writableOffset) go to an unnamed sparse file
// (O_TMPFILE) in `scratchFolder`, a partly written block first gets the disk's bytes; a bitmap
// says which blocks the view holds. Served through FUSE like device/partitionfile.h (a private
// 0700 mount, direct I/O, default_permissions), so a loop device can sit on it for tools that
// need one. The view is served by a process of its own, forked here (see runServer()), so
// this process only reads and writes through the mount and a kill of either never leaves a
// process that cannot exit or a mount that stays. Truncating to a smaller size is accepted and
// changes nothing (resize2fs cuts a regular file to the filesystem's size).

#include <QString>

#include <memory>
#include <vector>

namespace partwise {

class FuseMount;
struct CowWindowServer;

class CowWindow
{
public:
    static constexpr qint64 kBlockBytes = 4096;

    // `diskFd`: the disk or image, open for reading (duplicated; the caller's stays its own).
    CowWindow(int diskFd, qint64 windowBytes, qint64 writableOffset, qint64 writableBytes,
              const QString &scratchFolder);
    ~CowWindow();
    CowWindow(const CowWindow &) = delete;
    CowWindow &operator=(const CowWindow &) = delete;

    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    QString path() const { return m_path; } // the view, until stopServing()

    // Ends the server and unmounts the view; what was written stays readable below. Call once
    // the tool has ended. False (with error()) when the server had ended before: then nothing
    // written through the view is to be used.
    bool stopServing();

    struct Block
    {
        qint64 offset = 0; // from writableOffset
        qint64 length = 0; // kBlockBytes, or less for the partition's last block
    };
    // The blocks the tool wrote, in offset order (after stopServing()).
    std::vector<Block> writtenBlocks() const;
    // Reads a written block's new bytes into `data` (block.length bytes).
    bool readBlock(const Block &block, char *data) const;

private:
    bool startServer();
    void tearDown();

    std::unique_ptr<CowWindowServer> m_server;
    std::unique_ptr<FuseMount> m_mount;
    QString m_path;
    QString m_error;
};

} // namespace partwise
