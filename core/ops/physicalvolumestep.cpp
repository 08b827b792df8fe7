#include "ops/physicalvolumestep.h"

#include "fs/resizesupport.h"
#include "layer/partitionbytes.h"
#include "layer/physicalvolumeresize.h"
#include "ops/partitionaccess.h"

namespace partwise {

bool isPhysicalVolume(const QString &filesystem)
{
    return filesystem == QLatin1String("LVM2_member");
}

namespace {

// pvs reads block devices only: inside an image, a read-only loop device over the range.
PartitionPath physicalVolumeDevice(const DiskLayout &layout, const PartitionInfo &p)
{
    const qint64 ss = layout.device.topology.logicalSectorSize;
    const FilesystemLocation where = partitionLocation(layout, p.startSector, p.number);
    PartitionBytes bytes;
    bytes.target = layout.device.path;
    bytes.partitionNode = where.isImage ? QString() : where.path;
    bytes.offsetBytes = p.startSector * ss;
    bytes.lengthBytes = p.lengthSectors() * ss;
    return PartitionPath::device(bytes);
}

} // namespace

QString physicalVolumeShrinkRefusal(const DiskLayout &layout, const PartitionInfo &p,
                                    qint64 newBytes)
{
    const PartitionPath path = physicalVolumeDevice(layout, p);
    if (!path.ok())
        return QStringLiteral("pvs needs a block device: %1").arg(path.error());
    return physicalVolumeShrinkProblem(path.path(), newBytes);
}

std::optional<qint64> physicalVolumeMinimumBytes(const DiskLayout &layout, const PartitionInfo &p)
{
    const PartitionPath path = physicalVolumeDevice(layout, p);
    const PhysicalVolumeSpace space =
        path.ok() ? physicalVolumeSpace(path.path()) : PhysicalVolumeSpace{};
    if (!space.ok)
        return std::nullopt;
    // One extent at least, so that the volume keeps room for what a group puts on it.
    return space.firstExtentBytes + std::max<qint64>(space.allocatedEnd, 1) * space.extentBytes;
}

ToolResult resizePhysicalVolumeAt(const FilesystemLocation &where, qint64 partitionBytes,
                                  qint64 newBytes)
{
    return onFilesystemNode(where, partitionBytes, false, [&](const QString &node) {
        return resizePhysicalVolume(node, newBytes);
    });
}

ToolResult resizePartitionContents(const FilesystemLocation &where, int number,
                                   const QString &filesystem, qint64 partitionBytes,
                                   qint64 newBytes, const RedoJournal &redo)
{
    if (!isPhysicalVolume(filesystem))
        return resizeFilesystemJournaled(where, partitionBytes, filesystem, newBytes, redo);
    if (redo.log)
        redo.log(QStringLiteral("  ") +
                 physicalVolumeResizeLine(where.isImage ? QStringLiteral("partition %1").arg(number)
                                                        : where.path,
                                          newBytes));
    return resizePhysicalVolumeAt(where, partitionBytes, newBytes == partitionBytes ? 0 : newBytes);
}

} // namespace partwise
