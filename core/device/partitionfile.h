#pragma once

// A partition of an image as a file of its own, for the filesystems' tools that read and write a
// filesystem only from a file's first byte (e2fsck, resize2fs, ntfsresize, fsck.fat, fatlabel,
// partclone…), without root: the loop device that does this for root (loopattachment.h) cannot
// be made by a user, and a scratch copy (fs/scratchcopy.h) can only be read.
//
// The file is served through FUSE by a thread of this process (the tools run as child
// processes), on a private mount (device/fusemount.h: a 0700 folder; no other user, not even
// root, may enter a FUSE mount made without allow_other, and default_permissions lets the kernel
// check the file's 0600). Every read and write goes straight to the image at the partition's
// offset (direct_io: no page cache between the tool and the image), fsync syncs the image. The
// file never outgrows the partition: a write reaching past its end is cut there (ENOSPC for the
// rest), growing it fails with EFBIG, and a truncate to a smaller size succeeds without changing
// anything, as a partition keeps its size (resize2fs cuts a regular file to the filesystem's new
// size after shrinking it, which on the image itself would cut off every partition after it).
// A read-only file refuses every write with EROFS (and its image is open read-only), but still
// opens for writing: xfs_logprint opens a regular file read-write to read it.
//
// The mount goes away with this object, and also when the process is killed at any instant
// (fusemount.h's keeper).

#include <QString>

#include <memory>

namespace partwise {

class FuseMount;
struct PartitionFileServer;

// Why this session cannot have partition files, or an empty string when it can (FUSE usable:
// /dev/fuse open to the user, fusermount3 installed and setuid). Cheap: mounts nothing.
QString partitionFilesProblem();
bool partitionFilesAvailable();

class PartitionFile
{
public:
    // `imageFd`: the image file or disk, opened once by the caller and handed on, open for
    // reading (and writing unless `readOnly`). It is duplicated: the caller's stays the caller's.
    // [offset, offset + length) must lie inside it.
    PartitionFile(int imageFd, qint64 offset, qint64 length, bool readOnly);
    ~PartitionFile();
    PartitionFile(const PartitionFile &) = delete;
    PartitionFile &operator=(const PartitionFile &) = delete;

    bool ok() const { return m_error.isEmpty(); }
    QString path() const { return m_path; } // the file, while this lives
    QString error() const { return m_error; }

private:
    void tearDown();

    std::unique_ptr<PartitionFileServer> m_server;
    std::unique_ptr<FuseMount> m_mount;
    QString m_path;
    QString m_error;
};

} // namespace partwise
