#include "ops/realignpreflight.h"

#include "device/loopattachment.h"
#include "fs/filesystemtools.h"
#include "ops/partitionaccess.h"

#include <QSet>

#include <unistd.h>

namespace {

bool isExt(const QString &fs)
{
    return fs == QLatin1String("ext2") || fs == QLatin1String("ext3") ||
           fs == QLatin1String("ext4");
}

// e2fsprogs reads a filesystem at an offset inside an image; the other tools need a device
// node, which inside an image means a read-only loop device (root only).
ToolResult checkReadOnly(const DiskLayout &layout, const PartitionMove &m, bool *notChecked)
{
    const FilesystemLocation where = partitionLocation(layout, m.oldStart, m.number);
    const qint64 ss = layout.device.topology.logicalSectorSize;
    if (!where.isImage || isExt(m.filesystem))
        return checkFilesystem(where.isImage ? e2fsprogsName(where) : where.path, m.filesystem,
                               false);
    if (::geteuid() != 0) {
        *notChecked = true;
        return ToolResult{};
    }
    LoopAttachment loop(where.path, where.offset, m.oldLength() * ss, true);
    if (!loop.ok())
        return ToolResult{false, -1, QString(), QString(), loop.error()};
    return checkFilesystem(loop.device(), m.filesystem, false);
}

} // namespace

QString checkBeforeRealigning(const DiskLayout &layout, const QList<PartitionMove> &moves,
                              const std::function<void(const QString &)> &log)
{
    QSet<int> checked; // an extended partition's steps and a partition's own come once
    for (const PartitionMove &m : moves) {
        if (m.tableOnly() || m.recreateSwap || m.filesystem.isEmpty() || checked.contains(m.number))
            continue;
        checked.insert(m.number);
        bool notChecked = false;
        const ToolResult r = checkReadOnly(layout, m, &notChecked);
        if (notChecked) {
            log(QStringLiteral("Partition %1 (%2): not checked before moving (checking inside "
                               "an image needs root for a loop device)")
                    .arg(m.number)
                    .arg(m.filesystem));
            continue;
        }
        if (!r.ok)
            return QStringLiteral("Partition %1 (%2) did not pass its own read-only check, so "
                                  "nothing was changed: %3 Repair it first (Check Filesystem "
                                  "with repair, or the filesystem's own tool), then realign.")
                .arg(m.number)
                .arg(m.filesystem, r.error.isEmpty() ? r.output.right(600) : r.error);
        log(QStringLiteral("Partition %1 (%2): clean").arg(m.number).arg(m.filesystem));
    }
    return QString();
}
