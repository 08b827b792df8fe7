#include "ops/identityfollow.h"

#include "boot/referencefiles.h"
#include "fs/filesystemuuid.h"
#include "ops/copyreferences.h"
#include "ops/operation.h"
#include "ops/partitionaccess.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

namespace partwise {

void chooseNewIdentities(const DiskLayout &layout, QList<Operation> *operations)
{
    QSet<int> formatted;  // by an operation before: its UUID and label are not the disk's yet
    QSet<int> relabelled; // by a label before: its label is not the disk's yet
    for (Operation &op : *operations) {
        const PartitionInfo *p =
            formatted.contains(op.number) ? nullptr : layout.partitionByNumber(op.number);
        if (op.type == Operation::Type::Format || op.changesTable())
            formatted << op.number;
        if (!p)
            continue;
        if (op.type == Operation::Type::SetLabel && op.oldLabel.isEmpty() &&
            !relabelled.contains(op.number))
            op.oldLabel = p->label;
        if (op.type == Operation::Type::SetLabel)
            relabelled << op.number;
        if (op.type == Operation::Type::NewUuid && op.uuid.isEmpty() &&
            canChangeFilesystemUuid(p->filesystem)) {
            op.uuid = randomFilesystemUuid(p->filesystem);
            op.oldUuid = p->uuid;
        }
    }
}

QString identityBackupSuffix(const IdentityChange &change)
{
    QString id = change.to;
    if (change.kind == IdentityChange::Kind::Label)
        id = QString::fromLatin1(
            QCryptographicHash::hash(change.to.toUtf8(), QCryptographicHash::Sha1).toHex());
    id.remove(QLatin1Char('-'));
    return QStringLiteral(".partwise-") + id.left(8).toLower();
}

bool labelFollowable(const QString &label)
{
    static const QRegularExpression separator(QStringLiteral("[\\s,;\"']"));
    return !label.isEmpty() && !label.contains(separator);
}

QString referenceFileList()
{
    QStringList files;
    for (const QString &pattern : referenceFilePatterns())
        files << QLatin1Char('/') + pattern;
    return files.join(QStringLiteral(", "));
}

bool followIdentityChange(const DiskLayout &layout, const IdentityChange &change,
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
        if (!followIdsInPartition(part, {change}, identityBackupSuffix(change), say, &checks,
                                  error))
            return false;
    }
    return true;
}

} // namespace partwise
