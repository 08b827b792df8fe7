#include "layer/layerreader.h"

#include "layer/lukslayer.h"
#include "layer/lvmlayer.h"

namespace partwise {

bool isReadableLayer(const QString &filesystem)
{
    return filesystem == QLatin1String("crypto_LUKS") || filesystem == QLatin1String("LVM2_member");
}

StorageLayers readPartitionLayers(const DiskLayout &layout, const PartitionInfo &partition)
{
    if (partition.isFree() || partition.isContainer() || !isReadableLayer(partition.filesystem))
        return {};
    const qint64 ss = layout.device.topology.logicalSectorSize;
    PartitionBytes bytes;
    bytes.target = layout.device.path;
    bytes.partitionNode = partition.devicePath;
    bytes.offsetBytes = partition.startSector * ss;
    bytes.lengthBytes = partition.lengthSectors() * ss;
    if (partition.filesystem == QLatin1String("crypto_LUKS"))
        return {readLuksLayer(bytes)};
    return {readLvmLayer(bytes)};
}

void readLayers(DiskLayout *layout)
{
    for (PartitionInfo &p : layout->regions)
        p.layers = readPartitionLayers(*layout, p);
}

} // namespace partwise
