#include "ops/copyids.h"

#include "fs/filesystemuuid.h"
#include "ops/copyplan.h"
#include "report/jsonreader.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace partwise {

namespace {

constexpr int kMaxPartitionNumber = 128;

// Anchored with \A and \z: "$" would also match before a final newline, which an id written
// into a copied /etc/fstab must never carry.
bool isGuid(const QString &text)
{
    static const QRegularExpression guid(QStringLiteral(
        "\\A[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\z"));
    return guid.match(text).hasMatch();
}

bool isMbrSignature(const QString &text)
{
    static const QRegularExpression signature(QStringLiteral("\\A[0-9a-fA-F]{8}\\z"));
    return signature.match(text).hasMatch();
}

// A filesystem UUID in any form libblkid shows one (the filesystem's own is judged by the plan).
bool isFilesystemUuidForm(const QString &text)
{
    static const QRegularExpression form(QStringLiteral(
        "\\A([0-9A-F]{4}-[0-9A-F]{4}|[0-9A-F]{16}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-"
        "[0-9a-f]{4}-[0-9a-f]{12})\\z"));
    return form.match(text).hasMatch();
}

} // namespace

CopyIds copyIdsOf(const CopyPlan &plan)
{
    CopyIds ids;
    if (!plan.newIds)
        return ids;
    ids.diskId = plan.diskId;
    for (const CopyPartitionPlan &p : plan.partitions) {
        if (!p.partitionGuid.isEmpty())
            ids.partitionGuids[p.sourceNumber] = p.partitionGuid;
        if (!p.newUuid.isEmpty())
            ids.uuids[p.sourceNumber] = p.newUuid;
    }
    return ids;
}

QJsonObject copyIdsToJson(const CopyIds &ids)
{
    QMap<int, QJsonObject> byNumber;
    for (auto it = ids.partitionGuids.cbegin(); it != ids.partitionGuids.cend(); ++it)
        byNumber[it.key()][QStringLiteral("partition_guid")] = it.value();
    for (auto it = ids.uuids.cbegin(); it != ids.uuids.cend(); ++it)
        byNumber[it.key()][QStringLiteral("uuid")] = it.value();
    QJsonArray partitions;
    for (auto it = byNumber.begin(); it != byNumber.end(); ++it) {
        it.value()[QStringLiteral("number")] = it.key();
        partitions.append(it.value());
    }
    return {{QStringLiteral("disk_id"), ids.diskId}, {QStringLiteral("partitions"), partitions}};
}

QString readCopyIds(const QJsonValue &value, CopyIds *ids)
{
    if (!value.isObject())
        return QStringLiteral("\"ids\" must be an object.");
    QString problem;
    JsonReader r(value.toObject(), QStringLiteral("the ids'"), &problem);
    CopyIds out;
    out.diskId = r.string("disk_id");
    const QJsonArray partitions = r.array("partitions", kMaxPartitionNumber);
    if (!problem.isEmpty())
        return problem;
    if (!isGuid(out.diskId) && !isMbrSignature(out.diskId))
        return QStringLiteral("The ids' \"disk_id\" must be a GUID or 8 hex digits.");
    for (const QJsonValue &v : partitions) {
        JsonReader p(v.toObject(), QStringLiteral("an id's"), &problem);
        if (!v.isObject())
            return QStringLiteral("The ids' \"partitions\" must be objects.");
        const int number = int(p.integer("number", 1, kMaxPartitionNumber));
        // Either may be left out: an MBR target has no partition GUIDs, a partition no filesystem.
        const auto text = [&](const char *key) {
            return v.toObject().contains(QLatin1String(key)) ? p.string(key) : QString();
        };
        const QString guid = text("partition_guid");
        const QString uuid = text("uuid");
        if (!problem.isEmpty())
            return problem;
        if (out.partitionGuids.contains(number) || out.uuids.contains(number))
            return QStringLiteral("The ids name partition %1 twice.").arg(number);
        if (!guid.isEmpty() && !isGuid(guid))
            return QStringLiteral("The ids' partition GUID of %1 is not a GUID.").arg(number);
        if (!uuid.isEmpty() && !isFilesystemUuidForm(uuid))
            return QStringLiteral("The ids' UUID of partition %1 is not a filesystem UUID.")
                .arg(number);
        if (!guid.isEmpty())
            out.partitionGuids[number] = guid;
        if (!uuid.isEmpty())
            out.uuids[number] = uuid;
    }
    *ids = out;
    return QString();
}

QStringList takeCopyIds(const CopyIds &given, const QStringList &sourceIds, CopyPlan *plan)
{
    QStringList refused;
    const bool gpt = plan->targetTable == QLatin1String("gpt");
    if (!given.diskId.isEmpty()) {
        if (gpt ? !isGuid(given.diskId) : !isMbrSignature(given.diskId))
            refused << QStringLiteral("The disk id given is not one a %1 table takes.")
                           .arg(plan->targetTable);
        plan->diskId = given.diskId;
    }
    QMap<int, QString> left = given.partitionGuids;
    left.insert(given.uuids);
    QStringList taken;
    for (CopyPartitionPlan &p : plan->partitions) {
        left.remove(p.sourceNumber);
        if (const QString guid = given.partitionGuids.value(p.sourceNumber); !guid.isEmpty()) {
            if (!gpt)
                refused << QStringLiteral("Partition %1 is given a GUID, which an MBR table has "
                                          "no place for.")
                               .arg(p.sourceNumber);
            p.partitionGuid = guid;
            taken << guid.toLower();
        }
        if (const QString uuid = given.uuids.value(p.sourceNumber); !uuid.isEmpty()) {
            if (p.newUuid.isEmpty() || !fitsFilesystemUuid(p.filesystem, uuid))
                refused << QStringLiteral("The UUID given to partition %1 is not one its %2 "
                                          "filesystem takes.")
                               .arg(p.sourceNumber)
                               .arg(p.filesystem.isEmpty() ? QStringLiteral("(no)") : p.filesystem);
            p.newUuid = uuid;
            taken << uuid.toLower();
        }
    }
    if (!left.isEmpty())
        refused << QStringLiteral("Ids are given for partition %1, which this copy does not have.")
                       .arg(left.firstKey());
    // New ids are new: none may repeat another, or be one the source has.
    taken << given.diskId.toLower();
    taken.removeAll(QString());
    for (const QString &id : std::as_const(taken))
        if (taken.count(id) > 1 || sourceIds.contains(id, Qt::CaseInsensitive)) {
            refused << QStringLiteral("The id %1 given for the copy is not new.").arg(id);
            break;
        }
    return refused;
}

} // namespace partwise
