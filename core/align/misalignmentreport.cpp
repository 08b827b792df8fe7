#include "align/misalignmentreport.h"

#include <algorithm>

namespace partwise {

namespace {

int countStatus(const QList<AlignmentVerdict> &verdicts, AlignmentStatus status)
{
    return int(std::count_if(verdicts.begin(), verdicts.end(),
                             [status](const AlignmentVerdict &v) { return v.status == status; }));
}

} // namespace

int MisalignmentReport::partitionCount() const
{
    return countStatus(verdicts, AlignmentStatus::Aligned) + sectorAlignedCount() +
           misalignedCount();
}

int MisalignmentReport::misalignedCount() const
{
    return countStatus(verdicts, AlignmentStatus::Misaligned);
}

int MisalignmentReport::sectorAlignedCount() const
{
    return countStatus(verdicts, AlignmentStatus::SectorAligned);
}

MisalignmentReport analyzeAlignment(const DiskLayout &layout, const AlignmentPolicy &policy)
{
    MisalignmentReport report;
    report.geometry = resolveAlignmentGeometry(layout.device.topology, policy);
    for (const auto &region : layout.regions)
        report.verdicts << judgePartition(region, report.geometry);
    return report;
}

} // namespace partwise
