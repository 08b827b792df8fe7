#include "cli/serveresults.h"

#include "device/drivehealth.h"
#include "ops/realignplantext.h"
#include "report/checkreport.h"

namespace partwise {

QJsonArray freeSpace(const DiskLayout &layout)
{
    QJsonArray free;
    const qint64 ss = layout.device.topology.logicalSectorSize;
    for (const PartitionInfo &r : layout.regions)
        if (r.isFree())
            free.append(QJsonObject{{QStringLiteral("start_sector"), r.startSector},
                                    {QStringLiteral("end_sector"), r.endSector},
                                    {QStringLiteral("size_bytes"), r.lengthSectors() * ss}});
    return free;
}

QJsonObject deviceJson(const DiskLayout &layout, const AlignmentPolicy &policy,
                       const BootInventory *boot)
{
    DiskCheck check{layout, analyzeAlignment(layout, policy), {}};
    if (boot)
        check.boot = *boot;
    QJsonObject device = diskCheckToJson(check);
    device[QStringLiteral("free_space")] = freeSpace(layout);
    return device;
}

QJsonObject planJson(const PreparedRealign &prepared, const QString &target)
{
    const qint64 ss = prepared.layout.device.topology.logicalSectorSize;
    QJsonArray moves;
    for (const PartitionMove &m : prepared.plan.moves)
        moves.append(QJsonObject{{QStringLiteral("number"), m.number},
                                 {QStringLiteral("old_start"), m.oldStart},
                                 {QStringLiteral("old_end"), m.oldEnd},
                                 {QStringLiteral("new_start"), m.newStart},
                                 {QStringLiteral("new_end"), m.newEnd},
                                 {QStringLiteral("bytes"), m.bytesToMove(ss)}});
    QJsonArray skipped;
    for (const RealignSkip &k : prepared.plan.skipped)
        skipped.append(QJsonObject{{QStringLiteral("number"), k.number},
                                   {QStringLiteral("reason"), k.reason}});
    QJsonArray warnings;
    if (!prepared.plan.moves.isEmpty() && !prepared.journal.survivesPowerCut)
        warnings.append(prepared.journal.warning);
    if (!prepared.plan.moves.isEmpty() && prepared.driveHealth.risky())
        warnings.append(riskyDriveWarning(target, prepared.driveHealth));
    return {{QStringLiteral("grain_bytes"), prepared.plan.geometry.grainBytes},
            {QStringLiteral("moves"), moves},
            {QStringLiteral("skipped"), skipped},
            {QStringLiteral("warnings"), warnings},
            {QStringLiteral("journal"), prepared.journalPath},
            {QStringLiteral("text"), realignPlanText(prepared)}};
}

QString stepName(RealignProgress::Step step)
{
    return step == RealignProgress::Step::Verifying ? QStringLiteral("verifying")
                                                    : QStringLiteral("moving");
}

} // namespace partwise
