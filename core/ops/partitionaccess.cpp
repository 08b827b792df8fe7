#include "ops/partitionaccess.h"

#include <QFileInfo>

FilesystemLocation partitionLocation(const DiskLayout &layout, qint64 startSector, int number)
{
    FilesystemLocation where;
    const PartitionInfo *p = layout.partitionByNumber(number);
    if (!layout.device.isImage && p && !p->devicePath.isEmpty() &&
        QFileInfo::exists(p->devicePath)) {
        where.path = p->devicePath;
        return where;
    }
    where.isImage = true;
    where.path = layout.device.path;
    where.offset = startSector * layout.device.topology.logicalSectorSize;
    return where;
}
