#pragma once

#include <functional>

#include "base/toolrunner.h"

#include <QStringList>

namespace partwise {

// Creating a filesystem with its own mkfs tool. On a block device the tool writes to the
// partition node; inside an image file it formats a sparse scratch file of the partition's size
// and copies the result in, so images need neither root nor loop devices.
struct FormatRequest
{
    QString filesystem; // ext2, ext3, ext4, xfs, btrfs, vfat, fat16, fat32, ntfs, swap
    QString label;
    QString uuid;   // keep an identity (swap recreated after realignment); empty: new
    QString target; // partition node, or the image file
    bool targetIsImage = false;
    qint64 offsetBytes = 0; // the partition's first byte inside the image
    qint64 sizeBytes = 0;
    qint64 startSector = 0; // for filesystems that record it (NTFS hidden sectors)
    qint64 logicalSectorSize = 512;
    qint64 grainBytes = 0;          // a RAID stripe-like grain above 1 MiB becomes stride hints
    qint64 physicalSectorBytes = 0; // the size in force; LUKS2 encrypts in 4 KiB from 4096 up
    // LUKS: the passphrase comes from this file (plan files) or from `passphrase` (the window),
    // which goes to cryptsetup on its standard input, never on a command line.
    QString keyFile;
    QByteArray passphrase;
    // Files to put into the new filesystem (practice disks), copied by the filesystems' own
    // tools: mkfs.ext4 -d, mcopy, ntfscp. Only for image targets, which are built in a scratch
    // file where no mount (and no root) is needed; flat folders only for NTFS.
    QString contentFrom;
};

QStringList formattableFilesystems();
bool isFormattable(const QString &filesystem);
ToolResult formatFilesystem(const FormatRequest &request);

// Inside an image: makes a scratch file the size of the partition next to it, lets `make` build
// the volume there (mkfs, cryptsetup: no root, no loop device), and copies the result into the
// partition's range sparsely. `request` gives the image, the offset and the size.
ToolResult buildInScratch(const FormatRequest &request,
                          const std::function<ToolResult(const QString &scratch)> &make);

} // namespace partwise
