#include "ops/writepreflight.h"

#include "device/busycheck.h"
#include "device/writeprotection.h"
#include "fs/filesystemtools.h"
#include "ops/partitionaccess.h"
#include "ops/writejournal.h"

#include <QFile>

namespace partwise {

namespace {

// Moving a damaged filesystem moves the damage, and shrinking one can make it worse: such a
// partition is left alone, and the tool's own words say why.
QString checkFilesystems(const DiskLayout &layout, const QList<PartitionMove> &moves,
                         QSet<int> *checked, const std::function<void(const QString &)> &log)
{
    for (const PartitionMove &m : moves) {
        if (m.tableOnly() || m.recreateSwap || m.filesystem.isEmpty() ||
            checked->contains(m.number))
            continue;
        if (const QString why = noCheckReason(m.filesystem); !why.isEmpty())
            return QStringLiteral("Partition %1 (%2) cannot be checked before it moves: %3, and "
                                  "damage in it would go along unseen; nothing was changed. Check "
                                  "it with its own tool; `partwise-cli realign "
                                  "--accept-unchecked` then moves it.")
                .arg(m.number)
                .arg(m.filesystem, why);
        const FilesystemLocation where = partitionLocation(layout, m.oldStart, m.number);
        bool noNode = false; // no loop device, partition file or scratch copy for the tool
        const ToolResult r = checkPartitionReadOnly(
            where, m.oldLength() * layout.device.topology.logicalSectorSize, m.filesystem, &noNode);
        // A filesystem that cannot be checked is not moved: moving it unchecked could move, or
        // spread, damage nobody saw.
        if (noNode)
            return QStringLiteral("Partition %1 (%2) could not be checked before it moves, so "
                                  "nothing was changed: %3 Run Partwise as administrator to "
                                  "check it through a loop device.")
                .arg(m.number)
                .arg(m.filesystem, r.error);
        if (!r.ok)
            return QStringLiteral("Partition %1 (%2) did not pass its own read-only check, so "
                                  "nothing was changed: %3 Repair it first (Check Filesystem "
                                  "with repair, or the filesystem's own tool), then try again.")
                .arg(m.number)
                .arg(m.filesystem, r.error.isEmpty() ? r.output.right(600) : r.error);
        checked->insert(m.number);
        log(QStringLiteral("Partition %1 (%2): clean").arg(m.number).arg(m.filesystem));
    }
    return QString();
}

QString busyPartitions(const WriteRequest &request)
{
    int own = 0;
    QStringList reasons =
        busyForWrite(request.target, request.partitions, request.writesTable, &own);
    // A partition written by offset may lie under another one the kernel still has in use.
    const qint64 ss = request.layout.device.topology.logicalSectorSize;
    for (const int number : request.partitions)
        if (const PartitionInfo *p = request.layout.partitionByNumber(number))
            for (const QString &r :
                 busyOverlapping(request.target, p->startSector * ss, p->lengthSectors() * ss))
                if (!reasons.contains(r)) {
                    reasons.insert(own, r);
                    ++own;
                }
    if (reasons.isEmpty())
        return {};
    if (own > 0)
        return QStringLiteral(
                   "Refusing to %1 partitions in use: %2. Unmount them, swapoff, or close "
                   "what holds them, and try again; nothing was changed.")
            .arg(request.verb, reasons.join(QStringLiteral("; ")));
    return QStringLiteral("Refusing to write the partition table of %1 while something on it is "
                          "in use: %2. The kernel cannot take a new table of a disk in use; "
                          "unmount, swapoff, or close what holds it, and try again; nothing was "
                          "changed.")
        .arg(request.target, reasons.join(QStringLiteral("; ")));
}

} // namespace

QStringList busyForWrite(const QString &target, const QList<int> &partitions, bool writesTable,
                         int *ownCount)
{
    QStringList reasons;
    for (int number : partitions)
        if (number > 0)
            for (const QString &r : busyReasons(target, number))
                if (!reasons.contains(r))
                    reasons << r;
    if (ownCount)
        *ownCount = int(reasons.size());
    if (writesTable || partitions.contains(0))
        for (const QString &r : busyReasons(target, 0))
            if (!reasons.contains(r))
                reasons << r;
    return reasons;
}

WritePreflight prepareWrite(const WriteRequest &request, QSet<int> *checked,
                            const std::function<void(const QString &)> &log)
{
    WritePreflight result;
    // A journal another disk left under this disk's name is not this disk's to finish, and is
    // not overwritten either (that disk may come back): it is named, for a person to move.
    if (QFile::exists(request.journalPath) &&
        interruptedWriteJournal(request.target, request.journalPath).isEmpty()) {
        result.error = QStringLiteral("%1 holds the journal of a stopped job on another disk that "
                                      "had the name %2; it is not this disk's. Nothing was "
                                      "changed: an administrator may move that journal away "
                                      "(keep it if that disk may come back) and try again.")
                           .arg(request.journalPath, request.target);
        return result;
    }
    if (QFile::exists(request.journalPath)) {
        result.error = QStringLiteral("An interrupted realignment or Apply of this disk is "
                                      "recorded in %1; finish it first with `partwise-cli resume "
                                      "--journal %1 %2`.")
                           .arg(request.journalPath, request.target);
        result.resumable = true;
        return result;
    }
    if (request.layout.device.readOnly || isWriteProtected(request.target)) {
        result.error = QStringLiteral("%1 is read-only; nothing was changed.").arg(request.target);
        return result;
    }
    result.error = busyPartitions(request);
    result.inUse = !result.error.isEmpty();
    if (result.inUse)
        return result;
    result.error =
        checkFilesystems(request.layout, request.checks, checked, [&log](const QString &line) {
            if (log)
                log(QStringLiteral("Checking first: ") + line);
        });
    if (!result.error.isEmpty())
        return result;
    const QString root = request.backupRoot.isEmpty() ? defaultBackupRoot() : request.backupRoot;
    if (!backupPartitionTable(request.target, request.layout.device.sizeBytes, root, &result.backup,
                              &result.error)) {
        result.error =
            QStringLiteral("Could not back up the partition table, so nothing was changed: %1")
                .arg(result.error);
        return result;
    }
    if (log)
        log(QStringLiteral("Partition table backed up to %1\n%2")
                .arg(result.backup.folder, result.backup.restoreInstructions));
    return result;
}

} // namespace partwise
