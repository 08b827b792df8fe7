#include "table/partedcommit.h"

#include "device/diskwritelock.h"

#include <QString>

#include <parted/parted.h>

namespace partwise {

bool commitTable(PedDisk *disk, bool isImage)
{
    if (!ped_disk_commit_to_dev(disk))
        return false;
    return isImage || tellKernelOfTable(disk);
}

bool tellKernelOfTable(PedDisk *disk)
{
    bool told = false;
    DiskWriteLock::whileUdevLooks(QString::fromLocal8Bit(disk->dev->path),
                                  [&] { told = ped_disk_commit_to_os(disk) != 0; });
    return told;
}

} // namespace partwise
