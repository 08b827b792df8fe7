#include "ops/tablerestorecheck.h"

#include "base/toolrunner.h"
#include "ops/copyplan.h"
#include "ops/sfdiskdump.h"
#include "ops/tablebackup.h"
#include "ops/writejournal.h"
#include "ops/writepreflight.h"

#include <QFile>

#include <algorithm>

namespace partwise {

namespace {

// A job that stopped part-way leaves its journal: the disk is between two layouts, and only
// resume knows which bytes are where.
QString unfinishedJob(const QString &target, const QString &journalPath)
{
    const QString writeJournal = WriteJournal::defaultPath(target);
    QStringList journals{writeJournal, writeJournal + QStringLiteral(".data"),
                         copyJournalPath(target)};
    if (!journalPath.isEmpty())
        journals.prepend(journalPath);
    for (const QString &journal : journals)
        if (QFile::exists(journal))
            return QStringLiteral(
                       "A realignment, Apply or copy of %1 stopped part-way and its journal %2 "
                       "still exists: the disk is between two layouts, and an old table would "
                       "point at data that is half moved. Finish the job first with "
                       "`partwise-cli resume --journal %2 %1`; nothing was written.")
                .arg(target, journal.endsWith(QLatin1String(".data")) ? writeJournal : journal);
    return {};
}

// The disk's table now, in the words of the tool that made the backup's dump. A disk without a
// table has no partitions to compare.
SfdiskDump currentTable(const QString &target)
{
    const ToolResult dump = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-d"), target},
                                    QStringLiteral("fdisk"), 60 * 1000, ToolChannels::Separate);
    return dump.ok ? parseSfdiskDump(dump.output) : SfdiskDump{};
}

const DumpedPartition *startingAt(const SfdiskDump &dump, qint64 start)
{
    for (const DumpedPartition &p : dump.partitions)
        if (p.start == start)
            return &p;
    return nullptr;
}

// Partitions whose data the backup's table would no longer find: one that starts elsewhere than
// the backup's partition of its number (unless the backup has it under another number, start
// and size alike: a logical partition renumbered after a deletion), or grew in place (its
// filesystem may fill space the old table cuts off).
QStringList misplaced(const SfdiskDump &backup, const SfdiskDump &now)
{
    QStringList lines;
    for (const DumpedPartition &p : now.partitions) {
        const DumpedPartition *old = backup.partition(p.number);
        if (!old)
            continue;
        const DumpedPartition *same = startingAt(backup, p.start);
        if (p.start != old->start && !(same && same->size == p.size))
            lines << QStringLiteral("partition %1 starts at sector %2 now, at sector %3 in the "
                                    "backup")
                         .arg(p.number)
                         .arg(p.start)
                         .arg(old->start);
        else if (p.start == old->start && p.size > old->size && !old->isExtended())
            lines << QStringLiteral("partition %1 grew from %2 to %3 sectors")
                         .arg(p.number)
                         .arg(old->size)
                         .arg(p.size);
    }
    return lines;
}

QString range(const DumpedPartition &p)
{
    return QStringLiteral("sectors %1-%2").arg(p.start).arg(p.start + p.size - 1);
}

QString labelName(const QString &label)
{
    return label.isEmpty() ? QStringLiteral("no table") : label;
}

// What the person is asked to agree to, partition by partition (known by where it starts).
// Whether `p` has bytes in the disk's first or last MiB, which restore writes from the backup.
bool reachesAnEdge(const DumpedPartition &p, qint64 sectorSize, qint64 diskBytes)
{
    const qint64 edge = std::min<qint64>(qint64(1) << 20, diskBytes);
    const qint64 begin = p.start * sectorSize;
    const qint64 end = (p.start + p.size) * sectorSize;
    return begin < edge || end > diskBytes - edge;
}

QStringList tableChanges(const SfdiskDump &backup, const SfdiskDump &now, qint64 diskBytes)
{
    QStringList lines;
    if (now.label != backup.label)
        lines << QStringLiteral("the table goes back from %1 to %2")
                     .arg(labelName(now.label), labelName(backup.label));
    for (const DumpedPartition &p : now.partitions)
        if (!startingAt(backup, p.start))
            lines << QStringLiteral("partition %1 (%2) leaves the table; %3")
                         .arg(p.number)
                         .arg(range(p),
                              reachesAnEdge(p, now.sectorSize, diskBytes)
                                  ? QStringLiteral("what of it lies in the disk's first or last "
                                                   "MiB gets the backup's bytes, the rest stays "
                                                   "on the disk with nothing pointing at it")
                                  : QStringLiteral("its bytes stay on the disk, but nothing "
                                                   "points at them"));
    for (const DumpedPartition &p : backup.partitions) {
        const DumpedPartition *q = startingAt(now, p.start);
        if (!q)
            lines << QStringLiteral("partition %1 comes back (%2)").arg(p.number).arg(range(p));
        else if (q->number != p.number || q->size != p.size || q->type != p.type)
            lines << QStringLiteral("partition %1 goes back to partition %2, %3, type %4")
                         .arg(q->number)
                         .arg(p.number)
                         .arg(range(p), p.type);
        else if (q->entry != p.entry)
            lines << QStringLiteral("partition %1 gets back its flags and name (%2)")
                         .arg(p.number)
                         .arg(p.entry.isEmpty() ? QStringLiteral("none") : p.entry);
    }
    return lines;
}

} // namespace

TableRestoreCheck checkTableRestore(const QString &backupFolder, const QString &target,
                                    const QString &journalPath)
{
    TableRestoreCheck check;
    check.refusal = backupTargetMismatch(backupFolder, target);
    if (check.refusal.isEmpty())
        check.refusal = unfinishedJob(target, journalPath);
    if (!check.ok())
        return check;
    const SfdiskDump backup = readBackupTable(backupFolder);
    const SfdiskDump now = currentTable(target);
    if (const QStringList moved = misplaced(backup, now); !moved.isEmpty()) {
        check.refusal =
            QStringLiteral("The data was moved after this backup was taken: %1. Restoring its "
                           "table would point those partitions at the wrong sectors; the table "
                           "on the disk now is the one that matches its data. Nothing was "
                           "written.")
                .arg(moved.join(QStringLiteral("; ")));
        return check;
    }
    if (const QStringList busy = busyForWrite(target, {}, true); !busy.isEmpty()) {
        check.refusal = QStringLiteral("Refusing to write the table of %1 while it is in use: "
                                       "%2. Nothing was written.")
                            .arg(target, busy.join(QStringLiteral("; ")));
        return check;
    }
    check.changes = tableChanges(backup, now, backedUpDiskBytes(backupFolder));
    return check;
}

} // namespace partwise
