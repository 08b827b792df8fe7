// Real filesystems on loop devices for data-safety tests (root only): make one with its own
// mkfs, fill it from a folder, read every file back, and run its own read-only check.
// Supported types (libblkid's names): ext4, xfs, btrfs, vfat, ntfs, exfat, swap; and fat16 /
// fat32 for a FAT of that kind, which libblkid calls vfat.
#pragma once

#include "toolrun.h"

#include <QByteArray>
#include <QMap>
#include <QString>

namespace pwtest {

// RAII: `losetup -f --show [-r] [-o offset --sizelimit size] file`; at the end `partx -d`
// (partitions someone added) and `losetup -d`.
// size 0 means to the end of the file.
class LoopRange
{
public:
    LoopRange(const QString &file, qint64 offset = 0, qint64 size = 0, bool readOnly = false);
    ~LoopRange();
    LoopRange(const LoopRange &) = delete;
    LoopRange &operator=(const LoopRange &) = delete;

    bool ok() const { return !m_path.isEmpty(); }
    QString path() const { return m_path; }
    QString error() const { return m_error; }

private:
    QString m_path;
    QString m_error;
};

// mkfs for `fs` on a block device. `hiddenSectors` is where the partition starts on its disk
// (FAT and NTFS record it; pass the partition's start sector when `node` is a bare range).
bool makeFilesystem(const QString &node, const QString &fs, const QString &label,
                    qint64 hiddenSectors, QString *error);

// Copies everything under `sourceDir` into the filesystem: mount (ext4, xfs, btrfs), ntfs-3g
// (ntfs) or mcopy (vfat); unmounts before returning. Nothing to do for swap.
bool fillFilesystem(const QString &node, const QString &fs, const QString &sourceDir,
                    QString *error);

// Relative path -> SHA-256 of every file in the filesystem, read through a read-only mount,
// ntfs-3g -o ro, or mcopy. Sets *error when the filesystem could not be read at all.
QMap<QString, QByteArray> filesystemTreeSha256(const QString &node, const QString &fs,
                                               QString *error);

// The filesystem's own read-only check: e2fsck -fn, xfs_repair -n, btrfs check --readonly,
// fsck.fat -n, ntfsfix -n. For swap: `blkid -p` must find swap.
ToolResult checkFilesystemReadOnly(const QString &node, const QString &fs);

// An mtools program (mcopy, mdel, mshowfat, ...) on a FAT whatever its geometry; the FAT is
// `-i node`, or `-i image@@offset` inside an image.
ToolResult mtools(const QString &program, const QStringList &args);

// What libblkid calls a fixture type (fat16 and fat32 are vfat).
QString blkidTypeOf(const QString &fs);

// `btrfs device scan --forget`: drop the kernel's memory of unmounted btrfs devices, so copies
// of one btrfs image on different loop devices don't confuse it.
void forgetBtrfsDevices();

} // namespace pwtest
