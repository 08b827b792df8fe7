#include "ops/partitionaccess.h"

#include "device/partitionnode.h"
#include "fs/filesystemkinds.h"
#include "fs/filesystemtools.h"
#include "fs/resizesupport.h"

#include <optional>

namespace partwise {

namespace {

// The kernel's node of partition `number`, only when it shows the very sectors the table gives
// it. A node the kernel still places elsewhere (a table written while a partition was busy, or
// by a tool that did not tell the kernel; a loop device reused for another image with the old
// one's partitions still registered) shows other sectors: a format or a check through it would
// write to, or read, another partition's data. By offset, the tools reach the right ones.
std::optional<PartitionNode> matchingNode(const DiskLayout &layout, qint64 startSector, int number)
{
    const PartitionInfo *p = layout.partitionByNumber(number);
    if (layout.device.isImage || !p || p->startSector != startSector)
        return std::nullopt;
    PartitionNode node;
    QString why;
    const qint64 ss = layout.device.topology.logicalSectorSize;
    if (!findPartitionNode(layout.device.path, number, &node, &why) ||
        node.startBytes != p->startSector * ss || node.sizeBytes != p->lengthSectors() * ss)
        return std::nullopt;
    return node;
}

} // namespace

FilesystemLocation partitionLocation(const DiskLayout &layout, qint64 startSector, int number)
{
    FilesystemLocation where;
    if (const auto node = matchingNode(layout, startSector, number)) {
        where.path = node->path;
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
