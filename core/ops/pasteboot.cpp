#include "ops/pasteboot.h"

#include "boot/bootimpact.h"
#include "table/diskreader.h"

#include <QFileInfo>

namespace partwise {

void describePasteBoot(const BootInventory &source, int sourceNumber, const QString &target,
                       const PreviewMove &paste, OperationsBootEffect *effect)
{
    const PartitionBoot *pb = source.partition(sourceNumber);
    if (!pb)
        return;
    // Only what the copy carries in its own sectors, named as the pasted partition.
    BootInventory carried;
    carried.disk = target;
    carried.sectorSize = source.sectorSize;
    carried.tableType = source.tableType;
    PartitionBoot copy = *pb;
    copy.number = paste.number;
    copy.bcd.reset();
    carried.partitions << copy;
    describeBootEffect(
        bootEffectOfMove(carried, paste.number, paste.oldStart, paste.newStart, paste.newLength),
        paste.number, &effect->fixes, &effect->breaks);
}

void addPasteBootEffects(const QString &target, const QList<Operation> &operations,
                         const QList<PreviewMove> &pastes, OperationsBootEffect *effect)
{
    for (const PreviewMove &paste : pastes) {
        const Operation &op = operations.at(paste.operation);
        DiskReadOptions options;
        if (QFileInfo(op.sourcePath).isFile())
            options.forcedSectorSize = op.source.sectorSize;
        const DiskReadResult read = readDisk(op.sourcePath, options);
        if (!read.ok) {
            effect->notes << QStringLiteral("What boots from %1 could not be read: %2")
                                 .arg(op.sourcePath, read.error);
            continue;
        }
        BootReadOptions boot;
        boot.readBcd = false; // the source's Windows boot menu names the source, not the paste
        describePasteBoot(readBootInventory(read.layout, boot), op.sourceNumber, target, paste,
                          effect);
    }
}

} // namespace partwise
