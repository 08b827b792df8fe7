#include "regionnames.h"

#include <QCoreApplication>
#include <QFileInfo>

using namespace partwise;

QString regionTitle(const PartitionInfo &region)
{
    if (region.isFree())
        return QCoreApplication::translate("RegionNames", "Unallocated");
    if (!region.devicePath.isEmpty())
        return region.devicePath;
    return QCoreApplication::translate("RegionNames", "Partition %1").arg(region.number);
}

QString regionShortTitle(const PartitionInfo &region)
{
    if (region.isFree())
        return QCoreApplication::translate("RegionNames", "unallocated");
    if (!region.devicePath.isEmpty())
        return QFileInfo(region.devicePath).fileName();
    return QCoreApplication::translate("RegionNames", "#%1").arg(region.number);
}

QString regionKindTitle(PartitionInfo::Kind kind)
{
    switch (kind) {
    case PartitionInfo::Kind::Primary:
        return QCoreApplication::translate("RegionNames", "primary");
    case PartitionInfo::Kind::Extended:
        return QCoreApplication::translate("RegionNames", "extended");
    case PartitionInfo::Kind::Logical:
        return QCoreApplication::translate("RegionNames", "logical");
    case PartitionInfo::Kind::Free:
        break;
    }
    return QCoreApplication::translate("RegionNames", "unallocated");
}
