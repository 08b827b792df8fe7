#pragma once

#include <QString>
#include <QStringList>

namespace partwise {

// Whether a table backup may go back onto a disk, judged before anything is written. A backup
// holds a table, not data: it is honest only while the data is where its table points.
struct TableRestoreCheck
{
    QString refusal;     // empty: it may be restored
    QStringList changes; // what the restore does to the table, for the question asked first
    bool ok() const { return refusal.isEmpty(); }
};

// Refuses when a realignment, Apply or copy of `target` stopped part-way (its journal, or
// `journalPath` when given, still exists: `resume` finishes it), when a partition of the backup
// starts elsewhere on the disk now (its data was moved, or the partition replaced, after the
// backup: the old table would point at the wrong sectors), when anything on the disk is in use,
// and when the backup was taken from another disk. A backup whose partitions all start where
// they start now (only the table changed: partitions created, deleted, resized in place, types)
// may be restored.
TableRestoreCheck checkTableRestore(const QString &backupFolder, const QString &target,
                                    const QString &journalPath = QString());

} // namespace partwise
