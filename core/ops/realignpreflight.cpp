#include "ops/realignpreflight.h"

#include "ops/partitionaccess.h"

QString checkBeforeRealigning(const DiskLayout &layout, const QList<PartitionMove> &moves,
                              QSet<int> *checked, const std::function<void(const QString &)> &log)
{
    for (const PartitionMove &m : moves) {
        if (m.tableOnly() || m.recreateSwap || m.filesystem.isEmpty() ||
            checked->contains(m.number))
            continue;
        const FilesystemLocation where = partitionLocation(layout, m.oldStart, m.number);
        bool noNode = false; // inside an image without root: no loop device for the tool
        const ToolResult r = checkPartitionReadOnly(
            where, m.oldLength() * layout.device.topology.logicalSectorSize, m.filesystem, &noNode);
        if (noNode) {
            log(QStringLiteral("Partition %1 (%2): not checked before moving: %3")
                    .arg(m.number)
                    .arg(m.filesystem, r.error));
            continue;
        }
        if (!r.ok)
            return QStringLiteral("Partition %1 (%2) did not pass its own read-only check, so "
                                  "nothing was changed: %3 Repair it first (Check Filesystem "
                                  "with repair, or the filesystem's own tool), then realign.")
                .arg(m.number)
                .arg(m.filesystem, r.error.isEmpty() ? r.output.right(600) : r.error);
        checked->insert(m.number);
        log(QStringLiteral("Partition %1 (%2): clean").arg(m.number).arg(m.filesystem));
    }
    return QString();
}
