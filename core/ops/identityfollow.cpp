#include "ops/identityfollow.h"

#include "boot/referencefiles.h"
#include "fs/filesystemuuid.h"
#include "ops/copyreferences.h"
#include "ops/operation.h"
#include "ops/partitionaccess.h"

#include <QSet>
#include <QStringList>

namespace partwise {

void chooseNewUuids(const DiskLayout &layout, QList<Operation> *operations)
{
    QSet<int> formatted; // by an operation before: its UUID is not the disk's yet
    for (Operation &op : *operations) {
        if (op.type == Operation::Type::Format || op.changesTable())
            formatted << op.number;
        if (op.type != Operation::Type::NewUuid || !op.uuid.isEmpty() ||
            formatted.contains(op.number))
            continue;
        const PartitionInfo *p = layout.partitionByNumber(op.number);
        if (!p || !canChangeFilesystemUuid(p->filesystem))
            continue;
        op.uuid = randomFilesystemUuid(p->filesystem);
        op.oldUuid = p->uuid;
    }
}

QString newUuidBackupSuffix(const QString &newUuid)
{
    QString id = newUuid;
    id.remove(QLatin1Char('-'));
    return QStringLiteral(".partwise-") + id.left(8).toLower();
}

QString referenceFileList()
{
    QStringList files;
    for (const QString &pattern : referenceFilePatterns())
        files << QLatin1Char('/') + pattern;
    return files.join(QStringLiteral(", "));
}

bool followNewUuid(const DiskLayout &layout, const IdentityChange &change,
                   const std::function<void(const QString &)> &log, QString *error)
{
    const auto say = [&](const QString &line) {
        if (log)
            log(line);
    };
    say(QStringLiteral("  references follow: %1 %2 -> %3")
            .arg(identityKindName(change.kind), change.from, change.to));
    const qint64 ss = layout.device.topology.logicalSectorSize;
    QStringList checks;
    for (const PartitionInfo &p : layout.partitions()) {
        if (p.filesystem.isEmpty() || p.isContainer())
            continue;
        QString why = copyReferencesSkipReason(p.filesystem);
        if (why.isEmpty() && p.inUse())
            why = QStringLiteral("it is in use; edit its files by hand");
        if (!why.isEmpty()) {
            say(QStringLiteral("  partition %1 (%2): files not looked at: %3")
                    .arg(p.number)
                    .arg(p.filesystem, why));
            continue;
        }
        const ReferencePartition part{partitionLocation(layout, p.startSector, p.number),
                                      p.lengthSectors() * ss, p.number, p.filesystem};
        if (!followIdsInPartition(part, {change}, newUuidBackupSuffix(change.to), say, &checks,
                                  error))
            return false;
    }
    return true;
}

} // namespace partwise
