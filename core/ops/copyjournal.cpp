#include "ops/copyjournal.h"

#include "base/atomicfile.h"
#include "base/nofollowfile.h"
#include "device/diskidentity.h"
#include "move/checksum.h"
#include "move/movejournal.h"
#include "move/redorecord.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace partwise {

namespace {

using Kind = PartitionInfo::Kind;

constexpr qint64 kMaxJournalBytes = qint64(1) << 24;

const QList<CopyDiscard> kDiscards{CopyDiscard::None, CopyDiscard::Holes, CopyDiscard::Trim};
constexpr qint64 kMaxDiscardGranularity = qint64(1) << 30;
const QList<CopyJournal::Step> kSteps{CopyJournal::Step::Planned, CopyJournal::Step::Cleared,
                                      CopyJournal::Step::Copying, CopyJournal::Step::Fixing,
                                      CopyJournal::Step::Table};
const QList<CopyData> kData{CopyData::UsedBlocks, CopyData::Whole, CopyData::Recreate,
                            CopyData::Shrunk, CopyData::None};
const QList<Kind> kKinds{Kind::Primary, Kind::Extended, Kind::Logical};

QString checksumText(const QJsonObject &content)
{
    const QByteArray compact = QJsonDocument(content).toJson(QJsonDocument::Compact);
    return QStringLiteral("%1").arg(
        move::checksum64(compact.constData(), std::size_t(compact.size())), 16, 16,
        QLatin1Char('0'));
}

QJsonObject partitionToJson(const CopyPartitionPlan &p)
{
    return QJsonObject{{QStringLiteral("source_number"), p.sourceNumber},
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
                       {QStringLiteral("bytes_to_copy"), qint64(p.bytesToCopy)}};
}

// A checked reader: the first missing or mistyped field is named and everything after fails.
struct Reader
{
    QString error;
    QJsonValue field(const QJsonObject &o, const char *key, QJsonValue::Type type)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (error.isEmpty() && v.type() != type)
            error = QStringLiteral("the field \"%1\" is missing or of the wrong type")
                        .arg(QLatin1String(key));
        return v;
    }
    QString string(const QJsonObject &o, const char *key)
    {
        return field(o, key, QJsonValue::String).toString();
    }
    bool boolean(const QJsonObject &o, const char *key)
    {
        return field(o, key, QJsonValue::Bool).toBool();
    }
    // Non-negative integers that a double holds exactly.
    qint64 number(const QJsonObject &o, const char *key)
    {
        const double d = field(o, key, QJsonValue::Double).toDouble();
        if (error.isEmpty() && (d < 0 || d > 9007199254740992.0 || d != qint64(d)))
            error = QStringLiteral("the field \"%1\" is out of range").arg(QLatin1String(key));
        return error.isEmpty() ? qint64(d) : 0;
    }
    template <typename T>
    T named(const QJsonObject &o, const char *key, const QList<T> &values, QString (*name)(T))
    {
        const QString text = string(o, key);
        for (T v : values)
            if (name(v) == text)
                return v;
        if (error.isEmpty())
            error = QStringLiteral("the field \"%1\" has an unknown value").arg(QLatin1String(key));
        return values.first();
    }
};

CopyPartitionPlan partitionFromJson(const QJsonObject &o, Reader &r)
{
    CopyPartitionPlan p;
    p.sourceNumber = int(r.number(o, "source_number"));
    p.targetNumber = int(r.number(o, "target_number"));
    p.kind = r.named<Kind>(o, "kind", kKinds, partitionKindName);
    p.filesystem = r.string(o, "filesystem");
    p.label = r.string(o, "label");
    p.uuid = r.string(o, "uuid");
    p.name = r.string(o, "name");
    for (const QJsonValue &f : r.field(o, "flags", QJsonValue::Array).toArray())
        p.flags << f.toString();
    p.typeId = r.string(o, "type_id");
    p.partitionGuid = r.string(o, "partition_guid");
    // Absent from a journal written before plans chose the UUIDs: the run picks one.
    p.newUuid = o.contains(QLatin1String("new_uuid")) ? r.string(o, "new_uuid") : QString();
    p.oldStart = r.number(o, "old_start");
    p.oldEnd = r.number(o, "old_end");
    p.newStart = r.number(o, "new_start");
    p.newEnd = r.number(o, "new_end");
    p.filesystemBytes = r.number(o, "filesystem_bytes");
    p.newFilesystemBytes = r.number(o, "new_filesystem_bytes");
    p.data = r.named<CopyData>(o, "data", kData, copyDataName);
    p.bytesToCopy = quint64(r.number(o, "bytes_to_copy"));
    if (r.error.isEmpty() && (p.newEnd < p.newStart || p.oldEnd < p.oldStart))
        r.error = QStringLiteral("a partition ends before it starts");
    return p;
}

} // namespace

QString copyStepName(CopyJournal::Step step)
{
    switch (step) {
    case CopyJournal::Step::Planned:
        return QStringLiteral("planned");
    case CopyJournal::Step::Cleared:
        return QStringLiteral("cleared");
    case CopyJournal::Step::Copying:
        return QStringLiteral("copying");
    case CopyJournal::Step::Fixing:
        return QStringLiteral("fixing");
    case CopyJournal::Step::Table:
        return QStringLiteral("table");
    }
    return QString();
}

bool CopyJournal::save(const QString &path, QString *error) const
{
    QJsonArray parts, chunks, verifiedList, fixedList, signatures;
    for (int i = 0; i < plan.partitions.size(); ++i) {
        parts.append(partitionToJson(plan.partitions[i]));
        chunks.append(chunksDone.value(i));
        signatures.append(chunkSignatures.value(i));
        verifiedList.append(verified.value(i));
        fixedList.append(fixed.value(i));
    }
    QJsonObject planJson{{QStringLiteral("source_sector_size"), plan.sourceSectorSize},
                         {QStringLiteral("target_sector_size"), plan.targetSectorSize},
                         {QStringLiteral("target_size_bytes"), plan.targetSizeBytes},
                         {QStringLiteral("source_table"), plan.sourceTable},
                         {QStringLiteral("target_table"), plan.targetTable},
                         {QStringLiteral("grain_bytes"), plan.grainBytes},
                         {QStringLiteral("new_ids"), plan.newIds},
                         {QStringLiteral("disk_id"), plan.diskId},
                         {QStringLiteral("adds_bios_boot"), plan.addsBiosBoot},
                         {QStringLiteral("bios_boot_start"), plan.biosBootStart},
                         {QStringLiteral("bios_boot_end"), plan.biosBootEnd},
                         {QStringLiteral("bios_boot_number"), plan.biosBootNumber},
                         {QStringLiteral("copies_boot_code"), plan.copiesBootCode},
                         {QStringLiteral("gap_sectors"), plan.gapSectors},
                         {QStringLiteral("discard"), copyDiscardName(plan.discard)},
                         {QStringLiteral("discard_granularity"), plan.discardGranularity},
                         {QStringLiteral("partitions"), parts}};
    if (plan.syslinuxGptMbr) // only then: journals of earlier versions read as false
        planJson.insert(QStringLiteral("syslinux_gptmbr"), true);
    const QJsonObject journal{{QStringLiteral("source"), source},
                              {QStringLiteral("target"), target},
                              {QStringLiteral("target_identity"), targetIdentity},
                              {QStringLiteral("verify"), verify},
                              {QStringLiteral("backup_folder"), backupFolder},
                              {QStringLiteral("scratch_folder"), scratchFolder},
                              {QStringLiteral("step"), copyStepName(step)},
                              {QStringLiteral("chunks_done"), chunks},
                              {QStringLiteral("chunk_signatures"), signatures},
                              {QStringLiteral("verified"), verifiedList},
                              {QStringLiteral("fixed"), fixedList},
                              {QStringLiteral("plan"), planJson}};
    QJsonObject content{{QStringLiteral("format"), kFormat}, {QStringLiteral("journal"), journal}};
    content.insert(QStringLiteral("checksum"), checksumText(content));
    if (!move::MoveJournal::makeFolderFor(path)) {
        *error = QStringLiteral("Cannot create a safe folder for the journal %1.").arg(path);
        return false;
    }
    const AtomicWrite written =
        writeFileAtomically(path, QJsonDocument(content).toJson(QJsonDocument::Indented));
    if (!written.ok()) {
        *error = QStringLiteral("Cannot write the journal %1: %2").arg(path, written.reason);
        return false;
    }
    return true;
}

bool CopyJournal::isCopyJournal(const QString &path)
{
    QByteArray raw;
    QString why;
    if (!readRegularFileBounded(path, kMaxJournalBytes, &raw, &why))
        return false;
    const QJsonObject journal =
        QJsonDocument::fromJson(raw).object().value(QStringLiteral("journal")).toObject();
    return journal.contains(QStringLiteral("plan")) && !journal.contains(QStringLiteral("moves"));
}

bool CopyJournal::load(const QString &path, CopyJournal *journal, QString *error)
{
    // Whatever it says is run: read only as a regular file of ours (or root's), never through a
    // link, never a FIFO, and of bounded size (base/nofollowfile.h).
    QByteArray raw;
    QString why;
    if (!readRegularFileBounded(path, kMaxJournalBytes, &raw, &why)) {
        *error = QStringLiteral("Cannot read the copy journal %1: %2. Nothing was written.")
                     .arg(path, why);
        return false;
    }
    QJsonObject root = QJsonDocument::fromJson(raw).object();
    Reader r;
    const QString stored = r.string(root, "checksum");
    root.remove(QStringLiteral("checksum"));
    if (r.error.isEmpty() && stored != checksumText(root))
        r.error = QStringLiteral("its checksum does not match its content");
    if (r.error.isEmpty() && r.number(root, "format") != kFormat)
        r.error = QStringLiteral("it is of another format");
    const QJsonObject j = r.field(root, "journal", QJsonValue::Object).toObject();
    CopyJournal c;
    c.source = r.string(j, "source");
    c.target = r.string(j, "target");
    c.targetIdentity = r.string(j, "target_identity");
    c.verify = r.boolean(j, "verify");
    c.backupFolder = r.string(j, "backup_folder");
    c.scratchFolder = r.string(j, "scratch_folder");
    c.step = r.named<Step>(j, "step", kSteps, copyStepName);
    const QJsonObject p = r.field(j, "plan", QJsonValue::Object).toObject();
    CopyPlan &plan = c.plan;
    plan.source = c.source;
    plan.target = c.target;
    plan.sourceSectorSize = r.number(p, "source_sector_size");
    plan.targetSectorSize = r.number(p, "target_sector_size");
    plan.targetSizeBytes = r.number(p, "target_size_bytes");
    plan.sourceTable = r.string(p, "source_table");
    plan.targetTable = r.string(p, "target_table");
    plan.grainBytes = r.number(p, "grain_bytes");
    plan.newIds = r.boolean(p, "new_ids");
    plan.diskId = r.string(p, "disk_id");
    plan.addsBiosBoot = r.boolean(p, "adds_bios_boot");
    plan.biosBootStart = r.number(p, "bios_boot_start");
    plan.biosBootEnd = r.number(p, "bios_boot_end");
    plan.biosBootNumber = int(r.number(p, "bios_boot_number"));
    plan.copiesBootCode = r.boolean(p, "copies_boot_code");
    plan.gapSectors = r.number(p, "gap_sectors");
    if (p.contains(QLatin1String("syslinux_gptmbr")))
        plan.syslinuxGptMbr = r.boolean(p, "syslinux_gptmbr");
    // A journal written before copies discarded has neither field: its copy discards nothing.
    if (p.contains(QLatin1String("discard"))) {
        plan.discard = r.named<CopyDiscard>(p, "discard", kDiscards, copyDiscardName);
        plan.discardGranularity = r.number(p, "discard_granularity");
        if (r.error.isEmpty() && plan.discardGranularity > kMaxDiscardGranularity)
            r.error = QStringLiteral("the field \"discard_granularity\" is out of range");
    }
    for (const QJsonValue &v : r.field(p, "partitions", QJsonValue::Array).toArray())
        plan.partitions << partitionFromJson(v.toObject(), r);
    const QJsonArray chunks = r.field(j, "chunks_done", QJsonValue::Array).toArray();
    const QJsonArray signatures = r.field(j, "chunk_signatures", QJsonValue::Array).toArray();
    const QJsonArray verified = r.field(j, "verified", QJsonValue::Array).toArray();
    const QJsonArray fixed = r.field(j, "fixed", QJsonValue::Array).toArray();
    if (r.error.isEmpty() &&
        (chunks.size() != plan.partitions.size() || signatures.size() != plan.partitions.size() ||
         verified.size() != plan.partitions.size() || fixed.size() != plan.partitions.size()))
        r.error = QStringLiteral("its lists do not match its partitions");
    if (r.error.isEmpty() && plan.sourceSectorSize != 512 && plan.sourceSectorSize != 4096)
        r.error = QStringLiteral("its sector size is not 512 or 4096");
    for (int i = 0; r.error.isEmpty() && i < plan.partitions.size(); ++i) {
        const double d = chunks[i].toDouble(-1);
        if (d < 0 || d != qint64(d) || !verified[i].isBool() || !fixed[i].isBool() ||
            !signatures[i].isString())
            r.error = QStringLiteral("its progress lists are damaged");
        c.chunksDone << qint64(d);
        c.chunkSignatures << signatures[i].toString();
        c.verified << verified[i].toBool();
        c.fixed << fixed[i].toBool();
    }
    if (!r.error.isEmpty()) {
        *error = QStringLiteral("The copy journal %1 cannot be used: %2. Nothing was written; "
                                "start the copy again.")
                     .arg(path, r.error);
        return false;
    }
    *journal = c;
    return true;
}

bool CopyJournal::remove(const QString &path)
{
    // Its records first: one left without its journal could meet a later copy's same step.
    move::removeRedoRecordsOf(path);
    const bool ok = QFile::remove(path);
    syncFolderOf(path);
    return ok;
}

bool copyJournalExists(const QString &target, const QString &journalPath)
{
    return QFile::exists(journalPath.isEmpty() ? copyJournalPath(target) : journalPath);
}

QString interruptedCopyJournal(const QString &target)
{
    const QString path = copyJournalPath(target);
    if (!QFile::exists(path))
        return {};
    CopyJournal journal;
    QString why;
    if (CopyJournal::load(path, &journal, &why) &&
        !isSameDisk(journal.targetIdentity, target, &why))
        return {};
    return path;
}

} // namespace partwise
