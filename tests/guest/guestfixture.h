// Building a drive's layout inside the test guest: a table by sfdisk, filesystems by their own
// mkfs, files from a deterministic tree, and the SHA-256 of every file to compare afterwards.
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

namespace pwtest {

struct GuestPartition
{
    int number = 0;
    QString fs;    // ext4, vfat, swap, or empty for none
    int files = 0; // small files of the tree written into it (plus one large file)
    qint64 largeBytes = 0;
};

// Writes `sfdiskScript` to `disk`, makes each partition's filesystem and fills it; returns each
// partition's files (number -> path -> SHA-256), or sets `error`.
QMap<int, QMap<QString, QByteArray>> buildLayout(const QString &disk, const QString &sfdiskScript,
                                                 const QList<GuestPartition> &parts,
                                                 const QString &scratch, QString *error);

// Every file of every partition of `disk` against `expected`, and each filesystem's own check:
// the differences, empty when all is the same.
QStringList compareLayout(const QString &disk, const QList<GuestPartition> &parts,
                          const QMap<int, QMap<QString, QByteArray>> &expected);

// The kernel's own idea of where partition `node` starts, in the disk's logical sectors
// (/sys/class/block/X/start counts 512-byte units whatever the sector size).
qint64 kernelStart(const QString &node, int logicalSectorSize);

// SHA-256 of a whole block device (sha256sum).
QByteArray deviceSha256(const QString &node);

} // namespace pwtest
