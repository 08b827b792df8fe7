#pragma once

// What every write job (a realignment, an Apply) checks before its first write, in one place so
// that both refuse the same disks for the same reasons and back the table up the same way:
//  1. no earlier job of this disk is left unfinished (its journal would be lost, and the disk
//     is not in the state the new job was planned on);
//  2. the disk is writable (libparted's view, and the kernel's read-only flag);
//  3. nothing the job writes is in use: no partition it touches, and not the whole disk, is
//     mounted, an active swap, held by another device or claimed (an exclusive open fails);
//     a job that writes the partition table needs the whole disk free, every partition included
//     (see busyForWrite);
//  4. every filesystem that will be shrunk, moved or grown passes its own read-only check;
//  5. the partition table is backed up.
// Nothing is written by these checks; a refusal says that nothing was changed.

#include "align/realignplan.h"
#include "ops/tablebackup.h"
#include "table/disklayout.h"

#include <QSet>

#include <functional>

namespace partwise {

struct WriteRequest
{
    QString target;
    DiskLayout layout;           // as read just before
    QList<int> partitions;       // the partitions written to; 0 stands for the whole disk
    bool writesTable = true;     // false only for a queue of filesystem work (format, label, check)
    QList<PartitionMove> checks; // filesystems to check first (their old place)
    QString journalPath;         // where the job's journal will be
    QString backupRoot;          // empty: defaultBackupRoot()
    QString verb = QStringLiteral("change"); // "Refusing to <verb> partitions in use"
};

struct WritePreflight
{
    QString error;          // empty when the job may start
    bool resumable = false; // an earlier job of this disk waits to be resumed
    bool inUse = false;     // refused for partitions in use (step 3)
    TableBackup backup;
    bool ok() const { return error.isEmpty(); }
};

// What stops a job writing `partitions` of `target`: first what holds those partitions (or the
// whole device under them), then, when it writes the partition table, whatever else on the disk
// is in use. libparted's commit writes the table and then asks the kernel to drop and re-add
// each changed partition (BLKPG); a partition in use cannot be dropped, so the kernel would go on
// using the old layout while the disk holds the new one ("reboot before making further
// changes"), and a filesystem on the whole disk would lose its superblock to the table. So a
// table is never written to a disk with anything on it in use; work inside one partition only
// (format, label, check) needs only that partition and the whole device itself free.
QStringList busyForWrite(const QString &target, const QList<int> &partitions, bool writesTable,
                         int *ownCount = nullptr);

// `checked`: partitions whose filesystems passed already (an earlier try); clean ones are added.
WritePreflight prepareWrite(const WriteRequest &request, QSet<int> *checked,
                            const std::function<void(const QString &)> &log);

} // namespace partwise
