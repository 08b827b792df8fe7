#pragma once

// A partition of an image, copied into a sparse file of its own, for the filesystem tools that
// read a filesystem only from a file's first byte (fsck.fat, ntfsfix, partclone…) when neither
// a loop device (root) nor the partition's own file through FUSE (device/partitionfile.h) can
// be had. Read-only work only: the copy is checked or mapped, then deleted; nothing is ever
// written back.
//
// Only the image's data is copied (its holes are found with SEEK_DATA/SEEK_HOLE and stay holes,
// and copy_file_range lets the kernel share or copy the rest without passing it through here),
// so a mostly empty partition costs little. One with more data than `kMaxScratchBytes` is not
// copied: its tools then have no node, and the caller says why.

#include <QList>
#include <QPair>
#include <QString>
#include <QTemporaryDir>

namespace partwise {

class ScratchCopy
{
public:
    static constexpr qint64 kMaxScratchBytes = qint64(2) << 30;

    ScratchCopy(const QString &image, qint64 offset, qint64 length);

    bool ok() const { return m_error.isEmpty(); }
    QString path() const { return m_path; }
    QString error() const { return m_error; }

private:
    // Copies each [begin, end) of `from` to the same place less `offset` in `to`.
    bool copyRanges(int from, int to, qint64 offset, const QList<QPair<qint64, qint64>> &ranges);

    QTemporaryDir m_dir;
    QString m_path;
    QString m_error;
};

} // namespace partwise
