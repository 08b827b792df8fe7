#include "table/mbrslots.h"

#include <algorithm>

namespace partwise {

bool insideExtended(const DiskLayout &layout, const PartitionInfo &free)
{
    return std::any_of(layout.regions.cbegin(), layout.regions.cend(),
                       [&free](const PartitionInfo &r) {
                           return r.isContainer() && r.startSector <= free.startSector &&
                                  free.endSector <= r.endSector;
                       });
}

QString noPrimarySlotReason(const DiskLayout &layout)
{
    if (layout.tableType != QLatin1String("msdos"))
        return QString();
    const auto entries =
        std::count_if(layout.regions.cbegin(), layout.regions.cend(), [](const PartitionInfo &r) {
            return r.kind == PartitionInfo::Kind::Primary || r.isContainer();
        });
    if (entries < 4)
        return QString();
    const bool extended = std::any_of(layout.regions.cbegin(), layout.regions.cend(),
                                      [](const PartitionInfo &r) { return r.isContainer(); });
    return extended ? QStringLiteral("An MBR (msdos) table holds four primary partitions, the "
                                     "extended one included, and all four are taken: put the "
                                     "partition in unallocated space inside the extended "
                                     "partition, or delete a primary partition first.")
                    : QStringLiteral("An MBR (msdos) table holds four primary partitions, and all "
                                     "four are taken: delete one first, or convert the disk to GPT "
                                     "(New Partition Table erases it).");
}

} // namespace partwise
