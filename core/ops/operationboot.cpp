#include "ops/operationboot.h"

#include "boot/bootimpact.h"

#include <QHash>

namespace partwise {

namespace {

// What the fix-ups after a move leave, so that a second move of the same partition in the
// queue is judged from there.
void followMove(BootInventory *inv, int number, qint64 oldStart, qint64 newStart)
{
    for (PartitionBoot &pb : inv->partitions)
        if (pb.number == number && pb.recordedStart == oldStart)
            pb.recordedStart = newStart;
    if (inv->grubCore && inv->grubCore->partition == number &&
        inv->grubCore->place == GrubCoreInfo::Place::BiosBootPartition) {
        GrubCoreInfo &core = *inv->grubCore;
        const qint64 shift = newStart - oldStart;
        core.sector = quint64(qint64(core.sector) + shift);
        core.lastSector = quint64(qint64(core.lastSector) + shift);
        for (GrubBlock &b : core.blocks)
            b.start = quint64(qint64(b.start) + shift);
    }
}

} // namespace

QStringList OperationsBootEffect::lines() const
{
    QStringList out;
    for (const QString &fix : fixes)
        out << QStringLiteral("boot: %1").arg(fix);
    for (const QString &broken : breaks)
        out << QStringLiteral("boot BREAKS: %1").arg(broken);
    return out;
}

OperationsBootEffect bootEffectOfOperations(const BootInventory &inventory,
                                            const DiskLayout &before,
                                            const QList<PreviewMove> &moves)
{
    OperationsBootEffect out;
    BootInventory now = inventory;
    QHash<qint64, int> readAt; // start → the partition's number on the disk as read
    for (const PartitionInfo &p : before.partitions())
        readAt.insert(p.startSector, p.number);
    for (const PreviewMove &m : moves) {
        const int number = readAt.value(m.oldStart, 0);
        if (number == 0)
            continue;
        readAt.remove(m.oldStart);
        readAt.insert(m.newStart, number);
        describeBootEffect(bootEffectOfMove(now, number, m.oldStart, m.newStart, m.newLength),
                           m.number, &out.fixes, &out.breaks);
        followMove(&now, number, m.oldStart, m.newStart);
    }
    if (!moves.isEmpty())
        out.notes = inventory.notes;
    return out;
}

OperationsBootEffect readBootEffectOfOperations(const DiskLayout &before,
                                                const QList<PreviewMove> &moves)
{
    if (moves.isEmpty())
        return {};
    BootReadOptions options;
    std::optional<FirmwareEntries> firmware;
    if (!before.device.isImage) {
        firmware = readFirmwareEntries();
        options.firmware = &*firmware;
    }
    return bootEffectOfOperations(readBootInventory(before, options), before, moves);
}

} // namespace partwise
