#pragma once

// The boot fix-ups a move needs once its data is at the new place and the table points there,
// beside the filesystem's own record of its start (fs/filesystemposition.h). Each writes a few
// bytes, finds what an earlier run already did and leaves it, so resume simply runs it again.

#include <QString>
#include <QStringList>

namespace partwise {

struct BootFixResult
{
    bool ok = true;
    QString error;    // when !ok: what is left broken and the command that repairs it
    QStringList done; // what was rewritten, one line each, for the log
};

// Whether fixBootAfterMove() has anything to look at for that move: a BIOS boot partition on a
// disk of 512-byte sectors that moved. Reads the table only.
bool bootFixNeeded(const QString &diskPath, qint64 logicalSectorSize, int number, qint64 oldStart,
                   qint64 newStart);

// Partition `number` of the disk or image `diskPath` was moved from `oldStart` to `newStart`
// (`movedSectors` of it copied). A BIOS boot partition takes GRUB's pointers along
// (boot/grubcore.h); other partitions need nothing here.
BootFixResult fixBootAfterMove(const QString &diskPath, qint64 logicalSectorSize, int number,
                               qint64 oldStart, qint64 newStart, qint64 movedSectors);

} // namespace partwise
