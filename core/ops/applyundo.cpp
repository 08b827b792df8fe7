#include "ops/applyundo.h"

#include "ops/tablebackup.h"
#include "table/parteddevice.h"
#include "table/partedsession.h"

#include <QCoreApplication>

#include <parted/parted.h>

namespace partwise {

namespace {

// The translation context of the reasons below (the window shows them).
class ApplyUndo
{
    Q_DECLARE_TR_FUNCTIONS(ApplyUndo)
};

// Why `op` wrote more than a table the backup puts back; empty when it did not. `freed`: an
// earlier operation of the same Apply deleted a partition or made a new table.
QString dataWrittenBy(const Operation &op, bool freed)
{
    switch (op.type) {
    case Operation::Type::NewTable:
    case Operation::Type::Delete:
    case Operation::Type::SetName:
    case Operation::Type::SetFlag:
    case Operation::Type::NewPartitionGuid:
        return QString();
    case Operation::Type::Create:
        // In space that was free before, a new filesystem covers nothing the backup points at.
        return op.filesystem.isEmpty() || !freed
                   ? QString()
                   : ApplyUndo::tr("it formatted a new partition where a deleted one may have "
                                   "been, and the old table would point at the new filesystem");
    case Operation::Type::Check:
        return op.repair
                   ? ApplyUndo::tr("it repaired the filesystem of partition %1").arg(op.number)
                   : QString();
    case Operation::Type::Format:
        return ApplyUndo::tr("it formatted partition %1").arg(op.number);
    case Operation::Type::SetLabel:
    case Operation::Type::NewUuid:
        return ApplyUndo::tr("it changed the filesystem of partition %1").arg(op.number);
    case Operation::Type::Resize:
        return ApplyUndo::tr("it resized or moved partition %1 and its filesystem").arg(op.number);
    case Operation::Type::Paste:
        return ApplyUndo::tr("it copied a partition's data onto the disk");
    }
    return QString();
}

// libparted's commit to the OS tells the kernel of every partition (BLKPG) as the table now
// has them; commit_to_dev is not called, so the restored bytes stay as they are.
bool tellKernel(const QString &target, QString *error)
{
    PartedSession session;
    PedDevice *dev = getPartedDevice(target, false, 0, 0);
    PedDisk *disk = dev ? ped_disk_new(dev) : nullptr;
    const bool told = disk && ped_disk_commit_to_os(disk) != 0;
    if (!told)
        *error = ApplyUndo::tr("The table of %1 is back, but the kernel could not be told of it "
                               "(%2): run `partx -u %1` or reboot before using its partitions.")
                     .arg(target, session.errorText());
    if (disk)
        ped_disk_destroy(disk);
    if (dev)
        ped_device_destroy(dev);
    return told;
}

} // namespace

QString whyApplyCannotBeUndone(const QList<Operation> &operations)
{
    bool freed = false;
    for (const Operation &op : operations) {
        if (const QString why = dataWrittenBy(op, freed); !why.isEmpty())
            return ApplyUndo::tr("The last Apply cannot be undone: %1, and a table backup puts "
                                 "back the table, not data.")
                .arg(why);
        freed = freed || op.type == Operation::Type::Delete || op.type == Operation::Type::NewTable;
    }
    return QString();
}

bool undoApply(const QString &backupFolder, const QString &target, bool isImage, QString *error)
{
    if (!restorePartitionTable(backupFolder, target, error))
        return false;
    return isImage || tellKernel(target, error);
}

} // namespace partwise
