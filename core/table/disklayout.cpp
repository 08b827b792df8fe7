#include "table/disklayout.h"

namespace partwise {

QList<PartitionInfo> DiskLayout::partitions() const
{
    QList<PartitionInfo> out;
    for (const auto &r : regions)
        if (!r.isFree())
            out << r;
    return out;
}

const PartitionInfo *DiskLayout::partitionByNumber(int number) const
{
    for (const auto &r : regions)
        if (!r.isFree() && r.number == number)
            return &r;
    return nullptr;
}

} // namespace partwise
