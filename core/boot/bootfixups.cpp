#include "boot/bootfixups.h"

#include "boot/grubcore.h"
#include "boot/partitionentries.h"

#include <fcntl.h>
#include <unistd.h>

namespace partwise {

bool bootFixNeeded(const QString &diskPath, qint64 sectorSize, int number, qint64 oldStart,
                   qint64 newStart)
{
    // GRUB for BIOS counts 512-byte sectors and is not used on 4Kn disks.
    if (oldStart == newStart || sectorSize != 512)
        return false;
    const int fd = ::open(diskPath.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return true; // fixBootAfterMove() says why it cannot look
    const PartitionEntries entries = readPartitionEntries(fd, sectorSize);
    const PartitionEntry *e = entries.byNumber(number);
    const bool needed = e && e->isBiosBoot();
    ::close(fd);
    return needed;
}

BootFixResult fixBootAfterMove(const QString &diskPath, qint64 sectorSize, int number,
                               qint64 oldStart, qint64 newStart, qint64 movedSectors)
{
    BootFixResult r;
    // GRUB for BIOS counts 512-byte sectors and is not used on 4Kn disks.
    if (oldStart == newStart || sectorSize != 512)
        return r;
    const int fd = ::open(diskPath.toLocal8Bit().constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        r.ok = false;
        r.error = QStringLiteral("Cannot open %1 to check its boot loader.").arg(diskPath);
        return r;
    }
    const PartitionEntries entries = readPartitionEntries(fd, sectorSize);
    const PartitionEntry *e = entries.byNumber(number);
    if (e && e->isBiosBoot()) {
        const GrubRelocation g = relocateGrubCore(fd, oldStart, newStart, movedSectors, diskPath);
        r.ok = g.ok;
        r.error = g.error;
        r.done = g.done;
    }
    ::close(fd);
    return r;
}

} // namespace partwise
