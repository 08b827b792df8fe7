#pragma once

#include "ops/sfdiskdump.h"

#include <QString>

namespace partwise {

// Before the first write to a disk, its partition table is saved: the raw first and last MiB
// (MBR/GPT headers, GPT entries, the backup GPT) and an `sfdisk -d` dump a person can read and
// replay. The folder also holds RESTORE.txt with the commands that put it back.
struct TableBackup
{
    QString folder;
    QString restoreInstructions; // the commands, for the log
};

// The default place: $XDG_DATA_HOME/partwise/backups (root: /var/backups/partwise, or
// $PARTWISE_BACKUP_ROOT when set; never for a helper started for a user: see serveduser.h).
QString defaultBackupRoot();

// Saves the table of `target` into a new folder under `root`. Returns false with `error` set
// when the backup could not be made completely; nothing must be written then.
bool backupPartitionTable(const QString &target, qint64 sizeBytes, const QString &root,
                          TableBackup *backup, QString *error);

// Why `backupFolder` cannot be restored onto `target`: not a backup, or taken from a disk of
// another size (a wrong disk). Empty when it fits.
QString backupTargetMismatch(const QString &backupFolder, const QString &target);

// The size of the disk the backup was taken from (backup.json); 0 when unreadable.
qint64 backedUpDiskBytes(const QString &backupFolder);

// The backup's table as sfdisk dumped it (table.sfdisk); empty when the disk had none.
SfdiskDump readBackupTable(const QString &backupFolder);

// Puts the saved table back onto `target`: the first and last MiB byte for byte (MBR and its
// boot code, both GPT headers and entry arrays, the gap after the MBR) except the sectors that
// hold the data of a partition in the backup, which stay as the disk has them now; and, for an
// MBR with an extended partition, the chain of EBRs through sfdisk from the saved dump.
// Refuses when the target's size differs from the one recorded (wrong disk). It does not ask
// whether the data is still where the backup's table points: checkTableRestore() does.
bool restorePartitionTable(const QString &backupFolder, const QString &target, QString *error);

} // namespace partwise
