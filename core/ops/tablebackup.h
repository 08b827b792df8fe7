#pragma once

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

// The default place: $XDG_DATA_HOME/partwise/backups (root: /var/backups/partwise).
QString defaultBackupRoot();

// Saves the table of `target` into a new folder under `root`. Returns false with `error` set
// when the backup could not be made completely; nothing must be written then.
bool backupPartitionTable(const QString &target, qint64 sizeBytes, const QString &root,
                          TableBackup *backup, QString *error);

// Writes the saved first and last MiB back onto `target`, byte for byte. Refuses when the
// target's size differs from the one recorded (wrong disk).
bool restorePartitionTable(const QString &backupFolder, const QString &target, QString *error);

} // namespace partwise
