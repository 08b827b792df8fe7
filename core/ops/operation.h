#pragma once

#include "align/partitionplacement.h"
#include "table/partitioninfo.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <algorithm>

namespace partwise {

// One pending change to a disk. A plain value, so the queue can be previewed, undone, saved as a
// plan file and applied by the GUI and by `partwise-cli apply` the same way.
struct Operation
{
    // description() is translated where a translator is installed (the GUI); partwise-cli has
    // none and stays English.
    Q_DECLARE_TR_FUNCTIONS(Operation)

public:
    // NewUuid gives the filesystem in a partition a new random UUID (its own tool, see
    // fs/filesystemuuid.h); NewPartitionGuid gives a GPT partition a new random unique GUID (the
    // table's entry, PARTUUID). Two types, because one writes inside a partition and the other
    // the table, and the busy rules differ. Both values are chosen when the operation runs.
    enum class Type {
        NewTable,
        Create,
        Delete,
        Format,
        SetLabel,
        SetName,
        SetFlag,
        Check,
        Resize,
        Paste,
        NewUuid,
        NewPartitionGuid
    };

    Type type = Type::Create;
    int number = 0; // the partition it acts on (all but NewTable, Create and Paste)

    QString tableType; // NewTable: "gpt" or "msdos"

    // Create, Paste and Resize
    PartitionInfo::Kind kind = PartitionInfo::Kind::Primary;
    qint64 startBytes = -1; // Create, Paste: -1 takes the first free space; Resize: -1 keeps it
    qint64 sizeBytes = -1;  // -1: the rest of the free space; Paste: 0 is the source's size
    AlignTo alignTo = AlignTo::Grain;

    // Create, Format, SetLabel, SetName
    QString filesystem;
    QString label;
    QString name;
    QStringList flags; // Create: flags to set
    // Create and Format as "luks2": where the passphrase comes from. A plan file names a key
    // file; the window holds a typed passphrase in memory only, never saved in a plan.
    QString keyFile;
    QByteArray passphrase;

    // Paste: a copy of partition `sourceNumber` of `sourcePath` (this disk or another) in free
    // space. `source` is what that partition holds, read by ops/pastesource.h before a preview
    // or Apply; a plan file names only the path and number.
    QString sourcePath;
    int sourceNumber = 0;
    struct PasteSource
    {
        bool known = false;
        qint64 sectorSize = 512; // the source disk's logical sector size
        qint64 startSector = 0;  // the source partition's place, in its own sectors
        qint64 lengthBytes = 0;
        qint64 filesystemBytes = 0; // 0: not measured; the partition's length is the minimum
        // How small its filesystem may be shrunk on the way (ops/copyshrink.h), measured only
        // when a paste asks for less than the filesystem holds; 0: not measured
        qint64 shrinkMinimumBytes = 0;
        QString filesystem, label;
        // Its table entry, which the paste carries as far as the target's table allows
        // (ops/copyplan.h's carriedEntry): the table's type ("gpt", "msdos"), the GPT name,
        // libparted's flags, the type (GPT type GUID or MBR type byte; empty: not read).
        QString tableType, name, typeId;
        QStringList flags;
        qint64 wholeBytes() const { return filesystemBytes > 0 ? filesystemBytes : lengthBytes; }
        // Swap is made anew at the paste's size (its UUID and label kept): any size that holds
        // a swap area will do.
        bool madeAnew() const { return filesystem == QLatin1String("swap"); }
        qint64 minimumBytes() const
        {
            if (madeAnew())
                return std::min<qint64>(1 << 20, wholeBytes());
            return shrinkMinimumBytes > 0 ? std::min(shrinkMinimumBytes, wholeBytes())
                                          : wholeBytes();
        }
    } source;

    // SetFlag
    QString flag;
    bool flagState = true;

    // Check
    bool repair = false;

    // NewUuid: the UUID it gives (fs/filesystemuuid.h's form) and the one it replaces, whose
    // references in the disk's filesystems follow (ops/identityfollow.h); empty: not known yet.
    QString uuid, oldUuid;

    // SetLabel: the label it replaces, whose LABEL= references follow; empty: none or not known.
    QString oldLabel;

    QString description() const; // "Create a primary partition of 256 MiB, formatted ext4, ..."
    bool changesTable() const;   // false for Format, SetLabel, NewUuid (filesystem) and Check
    // Why its label or name cannot be given to a tool, or empty. Labels reach mkfs, e2label,
    // fatlabel, ntfslabel, btrfs and xfs_admin (a shell script that evals its label): no
    // quote, backtick, '$' or backslash, no control character, and no leading '-' (an option
    // to the tools that take the label after the device). Checked when a plan is read (the CLI
    // and the helper) and again before an operation runs (the window's queue).
    QString textProblem() const;
};

QString operationTypeName(Operation::Type type); // the plan file's "op": "new-table", "create", ...

// What a new partition table destroys on a disk whose whole device holds a filesystem ("the XFS
// filesystem that fills the whole of /dev/sdb"), for the plan and the log; empty when `operations`
// holds no new table or the disk `before` has a partition table.
QString destroyedByNewTable(const QList<Operation> &operations, const QString &diskPath,
                            const QString &wholeDiskFilesystemName);

} // namespace partwise
