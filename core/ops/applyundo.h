#pragma once

#include "ops/operation.h"

#include <QList>
#include <QString>

namespace partwise {

// Undo of an Apply by the table backup it took first. A table backup holds the table, not data:
// it undoes an Apply honestly only when the Apply wrote nothing but the table (and the new
// filesystems of partitions created in space the backup's table left free).

// Why the backup taken before `operations` cannot undo them, in words for a greyed menu item;
// empty when it can.
QString whyApplyCannotBeUndone(const QList<Operation> &operations);

// Puts the backup back onto `target` (restorePartitionTable) and, on a block device, tells the
// kernel of the table (libparted's commit to the OS), since the window has no `partx -u` to ask
// of a person. Call checkTableRestore() first and ask. Blocking.
bool undoApply(const QString &backupFolder, const QString &target, bool isImage, QString *error);

} // namespace partwise
