#include "ops/copyplanjson.h"

#include "report/jsonreader.h"
#include "report/layoutjson.h" // kMaxRegions

#include <QJsonArray>

#include <algorithm>
#include <array>

namespace partwise {

namespace {

constexpr int kMaxPartitionNumber = 128;
constexpr qint64 kMaxBytes = qint64(1) << 56; // 64 PiB: past any disk
constexpr qint64 kMaxSectors = kMaxBytes / 512;
constexpr qint64 kMaxGrainBytes = qint64(1) << 40;
constexpr int kMaxLines = 1000; // refusals, notes and boot lines

void refuse(QString *problem, const QString &sentence)
{
    if (problem->isEmpty())
        *problem = sentence;
}

bool dataFromName(const QString &name, CopyData *data)
{
    for (const auto d : {CopyData::UsedBlocks, CopyData::Whole, CopyData::Recreate,
                         CopyData::Shrunk, CopyData::None})
        if (copyDataName(d) == name) {
            *data = d;
            return true;
        }
    return false;
}

bool kindFromName(const QString &name, PartitionInfo::Kind *kind)
{
    for (const auto k : {PartitionInfo::Kind::Primary, PartitionInfo::Kind::Extended,
                         PartitionInfo::Kind::Logical})
        if (partitionKindName(k) == name) {
            *kind = k;
            return true;
        }
    return false;
}

QJsonObject partitionJson(const CopyPartitionPlan &p)
{
    return {{QStringLiteral("source_number"), p.sourceNumber},
            {QStringLiteral("target_number"), p.targetNumber},
            {QStringLiteral("kind"), partitionKindName(p.kind)},
            {QStringLiteral("filesystem"), p.filesystem},
            {QStringLiteral("label"), p.label},
            {QStringLiteral("uuid"), p.uuid},
            {QStringLiteral("name"), p.name},
            {QStringLiteral("flags"), QJsonArray::fromStringList(p.flags)},
            {QStringLiteral("type_id"), p.typeId},
            {QStringLiteral("partition_guid"), p.partitionGuid},
            {QStringLiteral("new_uuid"), p.newUuid},
            {QStringLiteral("old_start"), p.oldStart},
            {QStringLiteral("old_end"), p.oldEnd},
            {QStringLiteral("new_start"), p.newStart},
            {QStringLiteral("new_end"), p.newEnd},
            {QStringLiteral("filesystem_bytes"), p.filesystemBytes},
            {QStringLiteral("new_filesystem_bytes"), p.newFilesystemBytes},
            {QStringLiteral("data"), copyDataName(p.data)},
            {QStringLiteral("whole_reason"), p.wholeReason},
            {QStringLiteral("bytes_to_copy"), qint64(p.bytesToCopy)}};
}

// A list of sentences, at most kMaxLines of them.
QStringList lines(JsonReader &r, const char *key, QString *problem)
{
    const QStringList out = r.strings(key);
    if (out.size() > kMaxLines) {
        refuse(problem, QStringLiteral("the plan's \"%1\" is too long").arg(QLatin1String(key)));
        return {};
    }
    return out;
}

CopyPartitionPlan readPartition(const QJsonObject &o, qint64 targetSectors, QString *problem)
{
    JsonReader r(o, QStringLiteral("a copied partition's"), problem);
    CopyPartitionPlan p;
    p.sourceNumber = int(r.integer("source_number", 1, kMaxPartitionNumber));
    p.targetNumber = int(r.integer("target_number", 1, kMaxPartitionNumber));
    if (!kindFromName(r.string("kind"), &p.kind))
        refuse(problem, QStringLiteral("a copied partition's \"kind\" is not known"));
    p.filesystem = r.string("filesystem");
    p.label = r.string("label");
    p.uuid = r.string("uuid");
    p.name = r.string("name");
    p.flags = r.strings("flags");
    p.typeId = r.string("type_id");
    p.partitionGuid = r.string("partition_guid");
    // Absent from an older helper's plan, which chose the UUIDs only when it ran.
    p.newUuid = o.contains(QLatin1String("new_uuid")) ? r.string("new_uuid") : QString();
    p.oldStart = r.integer("old_start", 0, kMaxSectors);
    p.oldEnd = r.integer("old_end", p.oldStart, kMaxSectors);
    p.newStart = r.integer("new_start", 0, std::max<qint64>(0, targetSectors - 1));
    p.newEnd = r.integer("new_end", p.newStart, std::max<qint64>(0, targetSectors - 1));
    p.filesystemBytes = r.integer("filesystem_bytes", 0, kMaxBytes);
    p.newFilesystemBytes = r.integer("new_filesystem_bytes", 0, kMaxBytes);
    if (!dataFromName(r.string("data"), &p.data))
        refuse(problem, QStringLiteral("a copied partition's \"data\" is not known"));
    p.wholeReason = r.string("whole_reason");
    p.bytesToCopy = quint64(r.integer("bytes_to_copy", 0, kMaxBytes));
    return p;
}

} // namespace

QJsonObject copyPlanToJson(const CopyPlan &plan)
{
    QJsonArray partitions;
    for (const CopyPartitionPlan &p : plan.partitions)
        partitions.append(partitionJson(p));
    return {{QStringLiteral("source"), plan.source},
            {QStringLiteral("target"), plan.target},
            {QStringLiteral("source_sector_size"), plan.sourceSectorSize},
            {QStringLiteral("target_sector_size"), plan.targetSectorSize},
            {QStringLiteral("target_size_bytes"), plan.targetSizeBytes},
            {QStringLiteral("source_table"), plan.sourceTable},
            {QStringLiteral("target_table"), plan.targetTable},
            {QStringLiteral("grain_bytes"), plan.grainBytes},
            {QStringLiteral("growth"), copyGrowthName(plan.growth)},
            {QStringLiteral("new_ids"), plan.newIds},
            {QStringLiteral("disk_id"), plan.diskId},
            {QStringLiteral("partitions"), partitions},
            {QStringLiteral("adds_bios_boot"), plan.addsBiosBoot},
            {QStringLiteral("bios_boot_start"), plan.biosBootStart},
            {QStringLiteral("bios_boot_end"), plan.biosBootEnd},
            {QStringLiteral("bios_boot_number"), plan.biosBootNumber},
            {QStringLiteral("copies_boot_code"), plan.copiesBootCode},
            {QStringLiteral("gap_sectors"), plan.gapSectors},
            {QStringLiteral("syslinux_gptmbr"), plan.syslinuxGptMbr},
            {QStringLiteral("discard"), copyDiscardName(plan.discard)},
            {QStringLiteral("discard_granularity"), plan.discardGranularity},
            {QStringLiteral("no_discard_reason"), plan.noDiscardReason},
            {QStringLiteral("bytes_to_copy"), qint64(plan.bytesToCopy)},
            {QStringLiteral("estimated_seconds"), plan.estimatedSeconds},
            {QStringLiteral("refused"), QJsonArray::fromStringList(plan.refused)},
            {QStringLiteral("notes"), QJsonArray::fromStringList(plan.notes)},
            {QStringLiteral("boot_fixes"), QJsonArray::fromStringList(plan.bootFixes)},
            {QStringLiteral("boot_breaks"), QJsonArray::fromStringList(plan.bootBreaks)}};
}

bool copyPlanFromJson(const QJsonObject &json, CopyPlan *plan, QString *error)
{
    QString problem;
    JsonReader r(json, QStringLiteral("the copy plan's"), &problem);
    CopyPlan p;
    p.source = r.string("source");
    p.target = r.string("target");
    p.sourceSectorSize = r.integer("source_sector_size", 512, 4096);
    p.targetSectorSize = r.integer("target_sector_size", 512, 4096);
    for (const qint64 size : {p.sourceSectorSize, p.targetSectorSize})
        if (size != 512 && size != 4096)
            refuse(&problem, QStringLiteral("the copy plan's sector sizes must be 512 or 4096"));
    p.targetSizeBytes = r.integer("target_size_bytes", 0, kMaxBytes);
    const QStringList tables{QStringLiteral("gpt"), QStringLiteral("msdos")};
    p.sourceTable = r.string("source_table");
    p.targetTable = r.string("target_table");
    if (!tables.contains(p.sourceTable) || !tables.contains(p.targetTable))
        refuse(&problem, QStringLiteral("the copy plan's tables must be gpt or msdos"));
    p.grainBytes = r.integer("grain_bytes", 512, kMaxGrainBytes);
    if (!parseCopyGrowth(r.string("growth"), &p.growth))
        refuse(&problem, QStringLiteral("the copy plan's \"growth\" is not known"));
    p.newIds = r.boolean("new_ids");
    p.diskId = r.string("disk_id");
    const qint64 targetSectors =
        p.targetSectorSize > 0 ? p.targetSizeBytes / p.targetSectorSize : 0;
    for (const QJsonValue &v : r.array("partitions", kMaxRegions)) {
        if (!v.isObject()) {
            refuse(&problem, QStringLiteral("the copy plan's partitions must be objects"));
            break;
        }
        p.partitions << readPartition(v.toObject(), targetSectors, &problem);
    }
    p.addsBiosBoot = r.boolean("adds_bios_boot");
    p.biosBootStart = r.integer("bios_boot_start", 0, kMaxSectors);
    p.biosBootEnd = r.integer("bios_boot_end", 0, kMaxSectors);
    p.biosBootNumber = int(r.integer("bios_boot_number", 0, kMaxPartitionNumber));
    p.copiesBootCode = r.boolean("copies_boot_code");
    p.gapSectors = r.integer("gap_sectors", 0, kMaxSectors);
    // Absent from helpers older than the key: the source's MBR code, as then.
    if (json.contains(QLatin1String("syslinux_gptmbr")))
        p.syslinuxGptMbr = r.boolean("syslinux_gptmbr");
    if (!parseCopyDiscard(r.string("discard"), &p.discard))
        refuse(&problem, QStringLiteral("the copy plan's \"discard\" is not known"));
    p.discardGranularity = r.integer("discard_granularity", 0, qint64(1) << 30);
    p.noDiscardReason = r.string("no_discard_reason");
    p.bytesToCopy = quint64(r.integer("bytes_to_copy", 0, kMaxBytes));
    p.estimatedSeconds = r.number("estimated_seconds", 0, 1e12);
    p.refused = lines(r, "refused", &problem);
    p.notes = lines(r, "notes", &problem);
    p.bootFixes = lines(r, "boot_fixes", &problem);
    p.bootBreaks = lines(r, "boot_breaks", &problem);
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    *plan = p;
    return true;
}

QJsonArray copyExpectJson(const CopyPlan &plan)
{
    QJsonArray out;
    for (const CopyPartitionPlan &p : plan.partitions)
        out.append(QJsonObject{{QStringLiteral("number"), p.sourceNumber},
                               {QStringLiteral("new_start"), p.newStart},
                               {QStringLiteral("new_end"), p.newEnd}});
    return out;
}

bool copyMatchesExpect(const QJsonValue &expect, const CopyPlan &fresh, QString *problem)
{
    if (!expect.isArray() || expect.toArray().size() > kMaxRegions) {
        *problem = QStringLiteral("\"expect\" must be a list of {number, new_start, new_end}.");
        return false;
    }
    const QJsonArray list = expect.toArray();
    QString wrong;
    QList<std::array<qint64, 3>> seen;
    for (const QJsonValue &v : list) {
        JsonReader r(v.toObject(), QStringLiteral("an expected placement's"), &wrong);
        if (!v.isObject())
            wrong = QStringLiteral("\"expect\" must be a list of objects");
        const qint64 number = r.integer("number", 1, kMaxPartitionNumber);
        const qint64 start = r.integer("new_start", 0, kMaxSectors);
        const qint64 end = r.integer("new_end", 0, kMaxSectors);
        seen.append({number, start, end});
    }
    if (!wrong.isEmpty()) {
        *problem = wrong + QLatin1Char('.');
        return false;
    }
    problem->clear();
    if (seen.size() != fresh.partitions.size())
        return false;
    for (qsizetype i = 0; i < seen.size(); ++i) {
        const CopyPartitionPlan &p = fresh.partitions.at(i);
        if (seen[i] != std::array<qint64, 3>{p.sourceNumber, p.newStart, p.newEnd})
            return false;
    }
    return true;
}

QJsonObject copyProgressToJson(const CopyProgress &p)
{
    const char *step = "copying";
    switch (p.stepKind) {
    case CopyProgress::Step::Preparing:
        step = "preparing";
        break;
    case CopyProgress::Step::Copying:
        break;
    case CopyProgress::Step::Verifying:
        step = "verifying";
        break;
    case CopyProgress::Step::Finishing:
        step = "finishing";
        break;
    }
    return {{QStringLiteral("partition_index"), p.partitionIndex},
            {QStringLiteral("partition_count"), p.partitionCount},
            {QStringLiteral("partition"), p.partition},
            {QStringLiteral("step"), QLatin1String(step)},
            {QStringLiteral("bytes_done"), qint64(p.bytesDone)},
            {QStringLiteral("bytes_total"), qint64(p.bytesTotal)},
            {QStringLiteral("bytes_per_second"), qint64(p.bytesPerSecond)},
            {QStringLiteral("seconds_left"), qint64(p.secondsLeft)}};
}

CopyProgress copyProgressFromJson(const QJsonObject &json)
{
    const auto number = [&json](const char *key, double most) {
        return std::clamp(json.value(QLatin1String(key)).toDouble(), 0.0, most);
    };
    constexpr double kMostBytes = 1e18;
    CopyProgress p;
    p.partitionIndex = int(number("partition_index", kMaxRegions));
    p.partitionCount = int(number("partition_count", kMaxRegions));
    p.partition = int(number("partition", kMaxPartitionNumber));
    const QString step = json.value(QStringLiteral("step")).toString();
    p.stepKind = step == QLatin1String("preparing")   ? CopyProgress::Step::Preparing
                 : step == QLatin1String("verifying") ? CopyProgress::Step::Verifying
                 : step == QLatin1String("finishing") ? CopyProgress::Step::Finishing
                                                      : CopyProgress::Step::Copying;
    p.step = step.left(40);
    p.bytesDone = quint64(number("bytes_done", kMostBytes));
    p.bytesTotal = quint64(number("bytes_total", kMostBytes));
    p.bytesPerSecond = number("bytes_per_second", kMostBytes);
    p.secondsLeft = number("seconds_left", kMostBytes);
    return p;
}

QJsonObject copyResultToJson(const CopyResult &result)
{
    return {{QStringLiteral("ok"), result.ok},
            {QStringLiteral("resumable"), result.resumable},
            {QStringLiteral("error"), result.error},
            {QStringLiteral("journal"), result.journalPath},
            {QStringLiteral("backup_folder"), result.backupFolder},
            {QStringLiteral("checks"), QJsonArray::fromStringList(result.checks)}};
}

bool copyResultFromJson(const QJsonObject &json, CopyResult *result, QString *error)
{
    QString problem;
    JsonReader r(json, QStringLiteral("the copy's result's"), &problem);
    CopyResult out;
    out.ok = r.boolean("ok");
    out.resumable = r.boolean("resumable");
    out.error = r.string("error");
    out.journalPath = r.string("journal");
    out.backupFolder = r.string("backup_folder");
    out.checks = lines(r, "checks", &problem);
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    *result = out;
    return true;
}

} // namespace partwise
