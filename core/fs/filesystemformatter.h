#pragma once

#include "base/toolrunner.h"

#include <QStringList>

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
    qint64 grainBytes = 0; // a RAID stripe-like grain above 1 MiB becomes stride hints
};

QStringList formattableFilesystems();
bool isFormattable(const QString &filesystem);
ToolResult formatFilesystem(const FormatRequest &request);
