#pragma once

#include <QString>

namespace partwise {

struct FilesystemIdentity
{
    QString type; // libblkid's TYPE: ext4, xfs, btrfs, vfat, ntfs, swap, ...
    QString label;
    QString uuid;
    QString version;
    // libblkid's BLOCK_SIZE: FAT, NTFS, exFAT and XFS give the sector size they record, other
    // filesystems their block size.
    qint64 blockSize = 0;
    bool isEmpty() const { return type.isEmpty(); }
};

// Probes for a filesystem with libblkid inside a byte range of a device or image, so partitions
// of image files can be identified without loop devices. Opened read-only; reuse one probe for
// all the partitions of a disk.
class FilesystemProbe
{
public:
    explicit FilesystemProbe(const QString &path, qint64 logicalSectorSize);
    ~FilesystemProbe();
    FilesystemProbe(const FilesystemProbe &) = delete;
    FilesystemProbe &operator=(const FilesystemProbe &) = delete;

    bool isOpen() const { return m_fd >= 0; }
    FilesystemIdentity probe(qint64 offsetBytes, qint64 sizeBytes) const;

private:
    int m_fd = -1;
    qint64 m_sectorSize;
};

} // namespace partwise
