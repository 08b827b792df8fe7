#pragma once

// The new identities of a copy with --new-ids, chosen once: the plan a person sees names them,
// and the run writes those, not others. A window asks a helper for a plan, then asks it to run
// that plan; the helper plans again (it takes nothing else from the client), so the ids shown
// travel with the request ("ids") and the fresh plan takes them instead of choosing anew.
//   {"disk_id": GUID | 8 hex digits,
//    "partitions": [{"number": N (the source's), "partition_guid": GUID, "uuid": UUID}]}
// Read here without trusting them (forms only; planCopy judges them against the disks).

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

namespace partwise {

struct CopyPlan;

struct CopyIds
{
    QString diskId;                    // GPT disk GUID or MBR signature (8 hex digits)
    QMap<int, QString> partitionGuids; // by source number: GPT partition GUIDs
    QMap<int, QString> uuids;          // by source number: filesystem UUIDs, as libblkid shows
    bool isEmpty() const { return diskId.isEmpty() && partitionGuids.isEmpty() && uuids.isEmpty(); }
};

// The ids a plan chose (empty without new ids).
CopyIds copyIdsOf(const CopyPlan &plan);

QJsonObject copyIdsToJson(const CopyIds &ids);

// An empty string when `value` is an "ids" object of the form above (sets `ids`), else what is
// wrong with it.
QString readCopyIds(const QJsonValue &value, CopyIds *ids);

// Puts the ids `given` into `plan` (made with new ids of its own choosing) and says why they
// cannot be taken: a form its table or a partition's filesystem does not take, a partition the
// plan does not have, an id given twice or one of the source's (`sourceIds`: any of its ids).
QStringList takeCopyIds(const CopyIds &given, const QStringList &sourceIds, CopyPlan *plan);

} // namespace partwise
