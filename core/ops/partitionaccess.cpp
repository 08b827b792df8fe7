#include "ops/partitionaccess.h"

#include "fs/filesystemkinds.h"
#include "fs/filesystemtools.h"
#include "fs/resizesupport.h"

#include <QFileInfo>

namespace partwise {

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

ToolResult checkPartitionReadOnly(const FilesystemLocation &where, qint64 sizeBytes,
                                  const QString &filesystem, bool *noNode)
{
    if (where.isImage && isExtFilesystem(filesystem))
        return checkFilesystem(e2fsprogsName(where), filesystem, false);
    const FilesystemNode node(where, sizeBytes, true);
    if (node.node().isEmpty()) {
        if (noNode)
            *noNode = true;
        return ToolResult::failed(node.error());
    }
    return checkFilesystem(node.node(), filesystem, false);
}

} // namespace partwise
