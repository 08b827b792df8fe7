#pragma once

#include <QString>

#include <optional>

namespace partwise {

// How many bytes a filesystem really occupies, read with its own tool (dumpe2fs, minfo,
// xfs_db, btrfs inspect-internal), so a move or a shrink always keeps all of it. NTFS gives
// nothing: its backup boot sector sits past its clusters, where no tool reports it.
// `image` and `offset` locate it inside an image file; for a block device pass the partition
// node and offset 0. Nothing when the tool cannot tell (or needs a device node we don't have).
struct FilesystemLocation
{
    QString path;         // partition node, or the image file
    qint64 offset = 0;    // the filesystem's first byte inside `path`
    bool isImage = false; // addressed by offset inside `path` (an image, or a disk without
                          // partition nodes)
};

std::optional<qint64> filesystemSizeBytes(const FilesystemLocation &where,
                                          const QString &filesystem);

// The name e2fsprogs accepts for a filesystem at an offset inside a file ("disk.img?offset=N").
QString e2fsprogsName(const FilesystemLocation &where);

} // namespace partwise
