#include "ops/realignlayernotes.h"

#include "align/alignmentverdict.h"
#include "report/layerreport.h"

namespace partwise {

namespace {

const PartitionMove *moveOf(const RealignPlan &plan, int number)
{
    for (const PartitionMove &m : plan.moves)
        if (m.number == number && !m.tableOnly())
            return &m;
    return nullptr;
}

} // namespace

QStringList realignLayerNotes(const DiskLayout &layout, const RealignPlan &plan)
{
    const qint64 ss = layout.device.topology.logicalSectorSize;
    QStringList notes;
    for (const PartitionInfo &p : layout.regions) {
        const PartitionMove *move = moveOf(plan, p.number);
        for (const StorageLayer &layer : p.layers) {
            if (!layer.readable())
                continue;
            if (move) {
                const qint64 after = move->newStart * ss + layer.dataOffsetBytes;
                const AlignmentVerdict v = judgeByte(after, plan.geometry);
                if (v.status == AlignmentStatus::Misaligned)
                    notes << QStringLiteral(
                                 "partition %1: its %2 data starts %3 bytes into it, so after "
                                 "the move it will start %4 bytes past a physical sector: moving "
                                 "the partition cannot align its data too; %5.")
                                 .arg(p.number)
                                 .arg(layerDisplayName(layer))
                                 .arg(layer.dataOffsetBytes)
                                 .arg(v.misalignmentBytes)
                                 .arg(layer.remedy);
                continue;
            }
            const AlignmentVerdict v = judgeByte(layer.absoluteOffsetBytes, plan.geometry);
            if (v.status == AlignmentStatus::Misaligned)
                notes << QStringLiteral("partition %1 stays where it is, but its %2 data is %3 "
                                        "bytes past a physical sector inside it; moving the "
                                        "partition cannot fix that: %4.")
                             .arg(p.number)
                             .arg(layerDisplayName(layer))
                             .arg(v.misalignmentBytes)
                             .arg(layer.remedy);
        }
    }
    return notes;
}

} // namespace partwise
