#include "ops/copyreferences.h"

#include "boot/fatreferencefiles.h"
#include "boot/folderreferencefiles.h"
#include "boot/partitionentries.h"
#include "device/filesystemprobe.h"
#include "device/privatemount.h"
#include "fs/filesystemkinds.h"
#include "fs/resizesupport.h"
#include "ops/partitionaccess.h"

#include <QFile>

#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

QString mbrPartUuid(const QString &diskId, int number)
{
    return QStringLiteral("%1-%2").arg(diskId.toLower()).arg(number, 2, 16, QLatin1Char('0'));
}

// The source's PARTUUIDs by partition number, as libblkid reads its table (the source is only
// read, and held unchanged while the copy runs).
QMap<int, QString> sourcePartUuids(const CopyPlan &plan)
{
    QMap<int, QString> out;
    const int fd = ::open(QFile::encodeName(plan.source).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return out;
    const PartitionEntries entries = readPartitionEntries(fd, plan.sourceSectorSize);
    ::close(fd);
    for (const PartitionEntry &e : entries.entries)
        out[e.number] =
            entries.tableType == QLatin1String("gpt")
                ? e.partitionGuid
                : (entries.diskId.isEmpty() ? QString() : mbrPartUuid(entries.diskId, e.number));
    return out;
}

qint64 partitionBytes(const CopyPlan &plan, const CopyPartitionPlan &p)
{
    return (p.newEnd - p.newStart + 1) * plan.targetSectorSize;
}

// The references in one copied filesystem; its check after.
bool followIn(const CopyPlan &plan, const CopyPartitionPlan &p,
              const QList<IdentityChange> &changes, const std::function<void(const QString &)> &say,
              QStringList *checks, QString *error)
{
    const FilesystemLocation where{plan.target, p.newStart * plan.targetSectorSize, true};
    const ReferencePartition part{where, partitionBytes(plan, p), p.targetNumber, p.filesystem};
    return followIdsInPartition(part, changes, copyReferenceBackupSuffix(plan), say, checks, error);
}

} // namespace

bool followIdsInPartition(const ReferencePartition &part, const QList<IdentityChange> &changes,
                          const QString &suffix, const std::function<void(const QString &)> &say,
                          QStringList *checks, QString *error)
{
    const FilesystemLocation &where = part.where;
    ReferenceOutcome outcome;
    QString why;
    if (isFatFilesystem(part.filesystem)) {
        FatReferenceFiles files(where.path, where.offset);
        outcome = rewriteReferenceFiles(files, changes, suffix);
    } else {
        const FilesystemNode node(where, part.bytes, false);
        if (node.node().isEmpty()) {
            *error = QStringLiteral("Partition %1 cannot be mounted to follow its new ids: %2")
                         .arg(part.number)
                         .arg(node.error());
            return false;
        }
        const auto edit = [&](int root, QString *failed) {
            FolderReferenceFiles files(root);
            outcome = rewriteReferenceFiles(files, changes, suffix);
            if (!outcome.ok)
                *failed = outcome.error;
            return outcome.ok;
        };
        if (!withPrivateMount(node.node(), part.filesystem, edit, &why) && outcome.ok)
            outcome = ReferenceOutcome{false, why, {}, 0};
    }
    for (const QString &line : outcome.lines)
        say(QStringLiteral("  partition %1: %2").arg(part.number).arg(line));
    if (!outcome.ok) {
        *error = QStringLiteral("Rewriting the ids named on partition %1 failed: %2")
                     .arg(part.number)
                     .arg(outcome.error);
        return false;
    }
    const ToolResult r = checkPartitionReadOnly(where, part.bytes, part.filesystem);
    const QString check = QStringLiteral("partition %1 (%2) after its files' ids: %3")
                              .arg(part.number)
                              .arg(part.filesystem, r.ok ? QStringLiteral("clean")
                                                         : QStringLiteral("not clean: ") + r.error);
    say(QStringLiteral("  check: ") + check);
    checks->append(check);
    if (!r.ok && r.exitCode != -1) {
        *error = QStringLiteral("Partition %1's check after its ids were rewritten reports "
                                "problems: %2")
                     .arg(part.number)
                     .arg(r.error);
        return false;
    }
    return true;
}

QString copyReferencesSkipReason(const QString &filesystem)
{
    if (isFatFilesystem(filesystem))
        return QString();
    if (isExtFilesystem(filesystem))
        return ::geteuid() == 0 ? QString() : QStringLiteral("mounting it for the edit needs root");
    return QStringLiteral("Partwise edits files on ext2/3/4 and FAT only");
}

QString plannedPartUuid(const CopyPlan &plan, const CopyPartitionPlan &p)
{
    if (plan.targetTable == QLatin1String("gpt"))
        return p.partitionGuid.toLower();
    return plan.diskId.isEmpty() ? QString() : mbrPartUuid(plan.diskId, p.targetNumber);
}

QString copyReferenceBackupSuffix(const CopyPlan &plan)
{
    QString id = plan.diskId;
    id.remove(QLatin1Char('-'));
    return QStringLiteral(".partwise-") + id.left(8).toLower();
}

QStringList copyReferencePlanText(const CopyPlan &plan)
{
    QStringList lines;
    if (!plan.newIds)
        return lines;
    QStringList edited, skipped;
    if (!plan.diskId.isEmpty())
        lines << QStringLiteral("ids: the disk gets id %1").arg(plan.diskId);
    for (const CopyPartitionPlan &p : plan.partitions) {
        QStringList given;
        if (const QString id = plannedPartUuid(plan, p); !id.isEmpty())
            given << QStringLiteral("PARTUUID ") + id;
        if (!p.newUuid.isEmpty())
            given << QStringLiteral("filesystem UUID ") + p.newUuid;
        if (!given.isEmpty())
            lines << QStringLiteral("ids: partition %1 gets %2")
                         .arg(p.targetNumber)
                         .arg(given.join(QStringLiteral(" and ")));
        if (p.filesystem.isEmpty() || p.data == CopyData::None || p.data == CopyData::Recreate)
            continue;
        const QString why = copyReferencesSkipReason(p.filesystem);
        if (why.isEmpty())
            edited << QStringLiteral("%1 (%2)").arg(p.targetNumber).arg(p.filesystem);
        else
            skipped << QStringLiteral("%1 (%2): %3").arg(p.targetNumber).arg(p.filesystem, why);
    }
    QStringList files;
    for (const QString &pattern : referenceFilePatterns())
        files << QLatin1Char('/') + pattern;
    if (!edited.isEmpty())
        lines << QStringLiteral("ids follow: every reference to an old UUID or PARTUUID in %1 on "
                                "partitions %2 is rewritten to the new one; each changed file is "
                                "kept beside itself as NAME%3, links are never followed, and "
                                "each filesystem is checked after")
                     .arg(files.join(QStringLiteral(", ")), edited.join(QStringLiteral(", ")),
                          copyReferenceBackupSuffix(plan));
    for (const QString &s : skipped)
        lines << QStringLiteral("ids follow: files on partition %1 are not looked at").arg(s);
    return lines;
}

QList<IdentityChange> copyIdentityChanges(const CopyPlan &plan,
                                          const QMap<int, QString> &oldPartUuids,
                                          const QMap<int, QString> &newUuids)
{
    QList<IdentityChange> changes;
    for (const CopyPartitionPlan &p : plan.partitions) {
        const QString uuid = newUuids.value(p.targetNumber);
        if (!p.uuid.isEmpty() && !uuid.isEmpty() && uuid.compare(p.uuid, Qt::CaseInsensitive))
            changes << IdentityChange{IdentityChange::Kind::Uuid, p.uuid, uuid};
        const QString oldPart = oldPartUuids.value(p.sourceNumber);
        const QString newPart = plannedPartUuid(plan, p);
        if (!oldPart.isEmpty() && !newPart.isEmpty() &&
            oldPart.compare(newPart, Qt::CaseInsensitive))
            changes << IdentityChange{IdentityChange::Kind::PartUuid, oldPart, newPart};
    }
    return changes;
}

bool followCopiedIdentities(const CopyPlan &plan, const std::function<void(const QString &)> &log,
                            QStringList *checks, QString *error)
{
    if (!plan.newIds)
        return true;
    const auto say = [&](const QString &line) {
        if (log)
            log(line);
    };
    QMap<int, QString> newUuids;
    {
        const FilesystemProbe probe(plan.target, plan.targetSectorSize);
        for (const CopyPartitionPlan &p : plan.partitions)
            if (!p.filesystem.isEmpty() && p.data != CopyData::None)
                newUuids[p.targetNumber] =
                    probe.probe(p.newStart * plan.targetSectorSize, partitionBytes(plan, p)).uuid;
    }
    const QList<IdentityChange> changes =
        copyIdentityChanges(plan, sourcePartUuids(plan), newUuids);
    say(QStringLiteral("Rewriting the references to %1 changed ids:").arg(changes.size()));
    for (const IdentityChange &c : changes)
        say(QStringLiteral("  %1 %2 -> %3").arg(identityKindName(c.kind), c.from, c.to));
    for (const CopyPartitionPlan &p : plan.partitions) {
        if (p.filesystem.isEmpty() || p.data == CopyData::None || p.data == CopyData::Recreate)
            continue;
        if (const QString why = copyReferencesSkipReason(p.filesystem); !why.isEmpty()) {
            say(QStringLiteral("  partition %1 (%2): files not looked at: %3")
                    .arg(p.targetNumber)
                    .arg(p.filesystem, why));
            continue;
        }
        if (!followIn(plan, p, changes, say, checks, error))
            return false;
    }
    return true;
}

} // namespace partwise
