#pragma once

// The journaled table commit's way where no copy-on-write view can be had (no FUSE): libparted
// commits to a sparse scratch image of the disk's size that holds only the sectors of the new
// table's metadata (the places libparted reads before it writes: the MBR's and each EBR's boot
// code, GPT's protective MBR, headers and arrays), copied from the disk in whole 4 KiB blocks.
// The blocks it changed are what the record then holds. A write outside those blocks (one that
// would carry the scratch image's zeros) makes the commit fail with nothing written.

#include <QByteArray>
#include <QString>

#include <vector>

typedef struct _PedDisk PedDisk;

namespace partwise {

struct ScratchBlock
{
    qint64 offset = 0; // on the disk, a multiple of 4 KiB
    QByteArray data;   // 4 KiB, or less for the disk's last block
};

// Commits `disk` to a scratch image in `folder` (an unnamed file) and returns in *changed the
// blocks that differ from the disk open as `diskFd` (`diskBytes` long). False with *error.
bool commitTableToScratch(PedDisk *disk, int diskFd, qint64 diskBytes, const QString &folder,
                          std::vector<ScratchBlock> *changed, QString *error);

} // namespace partwise
