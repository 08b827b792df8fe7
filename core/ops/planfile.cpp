#include "ops/planfile.h"

#include "align/alignmentpolicy.h"
#include "fs/filesystemuuid.h"
#include "layer/layercreator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace partwise {

namespace {

// No disk is an exbibyte; a bound far below qint64's keeps every later sum and rounding up to
// a sector (size + sector - 1) from overflowing into "rest" or a negative size.
constexpr qint64 kMaxPlanBytes = qint64(1) << 60;

bool parseSize(const QJsonValue &v, qint64 *bytes)
{
    if (v.isUndefined() || v.toString() == QLatin1String("rest")) {
        *bytes = -1;
        return true;
    }
    if (v.isDouble()) {
        // The range first: converting a double beyond qint64 is undefined behaviour.
        const double d = v.toDouble();
        *bytes = d >= 1 && d <= double(kMaxPlanBytes) && d == std::floor(d) ? qint64(d) : 0;
        return *bytes > 0;
    }
    const auto parsed = parseByteSize(v.toString());
    *bytes = parsed.value_or(0);
    return parsed.has_value() && *parsed <= kMaxPlanBytes;
}

// "number": a partition's number, 1 to 256 (more than any table has); 0 when absent or wrong.
int parseNumber(const QJsonValue &v)
{
    const double d = v.toDouble(0);
    return v.isDouble() && d >= 1 && d <= 256 && d == std::floor(d) ? int(d) : 0;
}

bool parseKind(const QString &text, PartitionInfo::Kind *kind)
{
    if (text.isEmpty() || text == QLatin1String("primary"))
        *kind = PartitionInfo::Kind::Primary;
    else if (text == QLatin1String("extended"))
        *kind = PartitionInfo::Kind::Extended;
    else if (text == QLatin1String("logical"))
        *kind = PartitionInfo::Kind::Logical;
    else
        return false;
    return true;
}

// A disk's or image's path as a plan may name it: absolute, plain, of a sane length. Whether it
// may be read is the job's question (the helper's guard, the user's rights).
QString pathProblem(const QString &path)
{
    if (!path.startsWith(QLatin1Char('/')) || path.size() > 4096)
        return QStringLiteral("\"source\" must be the absolute path of a disk or image");
    for (const QString &part : path.split(QLatin1Char('/')))
        if (part == QLatin1String(".."))
            return QStringLiteral("\"source\" must not contain \"..\"");
    for (const QChar c : path)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return QStringLiteral("\"source\" must not hold control characters");
    return {};
}

// {"op":"paste","source":PATH,"number":N,"start":...,"size":...,"align":...,"kind":...}: the
// filesystem and label are the source's, so a plan may not set them.
bool parsePaste(const QJsonObject &o, Operation *op, QString *why)
{
    op->sourcePath = o.value(QStringLiteral("source")).toString();
    op->sourceNumber = op->number;
    op->number = 0;
    if (const QString problem = pathProblem(op->sourcePath); !problem.isEmpty()) {
        *why = problem;
        return false;
    }
    if (op->sourceNumber <= 0) {
        *why = QStringLiteral("\"number\" must name the partition to paste (1 to 256)");
        return false;
    }
    if (!op->filesystem.isEmpty() || !op->label.isEmpty() || !op->name.isEmpty() ||
        !op->flags.isEmpty() || !op->keyFile.isEmpty()) {
        *why = QStringLiteral("a paste takes the source's filesystem and label: it has no "
                              "\"fs\", \"label\", \"name\", \"flags\" or \"key_file\"");
        return false;
    }
    const QJsonValue size = o.value(QStringLiteral("size"));
    if (size.isUndefined())
        op->sizeBytes = 0; // the source's size
    else if (!parseSize(size, &op->sizeBytes)) {
        *why = QStringLiteral("\"size\" must be a size such as \"256MiB\" or \"rest\"");
        return false;
    }
    const QJsonValue start = o.value(QStringLiteral("start"));
    if (!start.isUndefined() && !parseSize(start, &op->startBytes)) {
        *why = QStringLiteral("\"start\" must be a size such as \"1MiB\"");
        return false;
    }
    if (!parseKind(o.value(QStringLiteral("kind")).toString(), &op->kind) ||
        op->kind == PartitionInfo::Kind::Extended) {
        *why = QStringLiteral("\"kind\" must be primary or logical");
        return false;
    }
    if (!parseAlignTo(o.value(QStringLiteral("align")).toString(QStringLiteral("mib")),
                      &op->alignTo)) {
        *why = QStringLiteral("\"align\" must be mib, 4k, cylinder or none");
        return false;
    }
    return true;
}

// A new UUID's "uuid" and "old_uuid" are written into files as root (the references that
// follow it), so each must have one of the forms a filesystem's UUID has, matched whole.
bool parseUuids(const QJsonObject &o, Operation *op, QString *why)
{
    op->uuid = o.value(QStringLiteral("uuid")).toString();
    op->oldUuid = o.value(QStringLiteral("old_uuid")).toString();
    if (op->type != Operation::Type::NewUuid && (!op->uuid.isEmpty() || !op->oldUuid.isEmpty())) {
        *why = QStringLiteral("only new-uuid takes \"uuid\" and \"old_uuid\"");
        return false;
    }
    for (const QString &id : {op->uuid, op->oldUuid})
        if (!id.isEmpty() && !fitsSomeFilesystemUuid(id)) {
            *why = QStringLiteral("\"uuid\" and \"old_uuid\" must be filesystem UUIDs "
                                  "(such as 1A2B-3C4D or an RFC 4122 UUID in lower case)");
            return false;
        }
    return true;
}

bool parseOne(const QJsonObject &o, Operation *op, QString *why)
{
    const QString name = o.value(QStringLiteral("op")).toString();
    const QList<Operation::Type> types = {
        Operation::Type::NewTable, Operation::Type::Create,   Operation::Type::Delete,
        Operation::Type::Format,   Operation::Type::SetLabel, Operation::Type::SetName,
        Operation::Type::SetFlag,  Operation::Type::Check,    Operation::Type::Resize,
        Operation::Type::Paste,    Operation::Type::NewUuid,  Operation::Type::NewPartitionGuid};
    bool known = false;
    for (Operation::Type t : types)
        if (operationTypeName(t) == name) {
            op->type = t;
            known = true;
        }
    if (!known) {
        *why = QStringLiteral("unknown op '%1'").arg(name);
        return false;
    }
    op->number = parseNumber(o.value(QStringLiteral("number")));
    op->tableType = o.value(QStringLiteral("type")).toString();
    op->filesystem = o.value(QStringLiteral("fs")).toString();
    op->label = o.value(QStringLiteral("label")).toString();
    op->oldLabel = o.value(QStringLiteral("old_label")).toString();
    if (!op->oldLabel.isEmpty() && op->type != Operation::Type::SetLabel) {
        *why = QStringLiteral("only label takes \"old_label\"");
        return false;
    }
    op->keyFile = o.value(QStringLiteral("key_file")).toString();
    op->name = o.value(QStringLiteral("name")).toString();
    op->flag = o.value(QStringLiteral("flag")).toString();
    op->flagState = o.value(QStringLiteral("state")).toBool(true);
    op->repair = o.value(QStringLiteral("repair")).toBool(false);
    for (const QJsonValue &f : o.value(QStringLiteral("flags")).toArray())
        op->flags << f.toString();
    if (!parseUuids(o, op, why))
        return false;
    if (const QString problem = op->textProblem(); !problem.isEmpty()) {
        *why = problem;
        return false;
    }
    if (!op->filesystem.isEmpty() && !creatableContents().contains(op->filesystem)) {
        *why = QStringLiteral("\"fs\" must be one of %1")
                   .arg(creatableContents().join(QStringLiteral(", ")));
        return false;
    }
    if (op->type == Operation::Type::NewTable && op->tableType != QLatin1String("gpt") &&
        op->tableType != QLatin1String("msdos")) {
        *why = QStringLiteral("\"type\" must be \"gpt\" or \"msdos\"");
        return false;
    }
    if (op->type == Operation::Type::Create || op->type == Operation::Type::Resize) {
        if (!parseSize(o.value(QStringLiteral("size")), &op->sizeBytes)) {
            *why = QStringLiteral("\"size\" must be a size such as \"256MiB\" or \"rest\"");
            return false;
        }
        const QJsonValue start = o.value(QStringLiteral("start"));
        if (!start.isUndefined() && !parseSize(start, &op->startBytes)) {
            *why = QStringLiteral("\"start\" must be a size such as \"1MiB\"");
            return false;
        }
        if (!parseKind(o.value(QStringLiteral("kind")).toString(), &op->kind)) {
            *why = QStringLiteral("\"kind\" must be primary, extended or logical");
            return false;
        }
        const QString align = o.value(QStringLiteral("align")).toString(QStringLiteral("mib"));
        if (!parseAlignTo(align, &op->alignTo)) {
            *why = QStringLiteral("\"align\" must be mib, 4k, cylinder or none");
            return false;
        }
    }
    if (op->type == Operation::Type::Paste)
        return parsePaste(o, op, why);
    if (op->type != Operation::Type::NewTable && op->type != Operation::Type::Create &&
        op->number <= 0) {
        *why = QStringLiteral("\"number\" must name a partition");
        return false;
    }
    return true;
}

} // namespace

bool parsePlan(const QByteArray &json, QList<Operation> *operations, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (doc.isNull()) {
        *error = QStringLiteral("The plan is not valid JSON: %1 at byte %2.")
                     .arg(parseError.errorString())
                     .arg(parseError.offset);
        return false;
    }
    const QJsonValue list = doc.object().value(QStringLiteral("operations"));
    if (!list.isArray()) {
        *error = QStringLiteral("The plan has no \"operations\" list.");
        return false;
    }
    // A disk holds at most 128 GPT entries or a few dozen logical partitions; a plan thousands
    // of operations long is a mistake or an attack, and previewing it would take minutes.
    if (list.toArray().size() > kMaxPlanOperations) {
        *error = QStringLiteral("The plan has %1 operations; a plan may have at most %2.")
                     .arg(list.toArray().size())
                     .arg(kMaxPlanOperations);
        return false;
    }
    operations->clear();
    int index = 0;
    for (const QJsonValue &v : list.toArray()) {
        ++index;
        Operation op;
        QString why;
        if (!parseOne(v.toObject(), &op, &why)) {
            *error = QStringLiteral("Operation %1 of the plan: %2.").arg(index).arg(why);
            return false;
        }
        operations->append(op);
    }
    return true;
}

QByteArray serializePlan(const QList<Operation> &operations)
{
    QJsonArray list;
    for (const Operation &op : operations) {
        QJsonObject o{{QStringLiteral("op"), operationTypeName(op.type)}};
        switch (op.type) {
        case Operation::Type::NewTable:
            o[QStringLiteral("type")] = op.tableType;
            break;
        case Operation::Type::Create:
            o[QStringLiteral("kind")] = partitionKindName(op.kind);
            o[QStringLiteral("size")] =
                op.sizeBytes > 0 ? QJsonValue(op.sizeBytes) : QJsonValue(QStringLiteral("rest"));
            if (op.startBytes >= 0)
                o[QStringLiteral("start")] = op.startBytes;
            o[QStringLiteral("align")] = alignToName(op.alignTo);
            if (!op.flags.isEmpty())
                o[QStringLiteral("flags")] = QJsonArray::fromStringList(op.flags);
            break;
        case Operation::Type::Resize:
            o[QStringLiteral("size")] =
                op.sizeBytes > 0 ? QJsonValue(op.sizeBytes) : QJsonValue(QStringLiteral("rest"));
            if (op.startBytes >= 0)
                o[QStringLiteral("start")] = op.startBytes;
            o[QStringLiteral("align")] = alignToName(op.alignTo);
            break;
        case Operation::Type::Paste:
            o[QStringLiteral("source")] = op.sourcePath;
            o[QStringLiteral("number")] = op.sourceNumber;
            o[QStringLiteral("kind")] = partitionKindName(op.kind);
            if (op.sizeBytes != 0)
                o[QStringLiteral("size")] = op.sizeBytes > 0 ? QJsonValue(op.sizeBytes)
                                                             : QJsonValue(QStringLiteral("rest"));
            if (op.startBytes >= 0)
                o[QStringLiteral("start")] = op.startBytes;
            o[QStringLiteral("align")] = alignToName(op.alignTo);
            break;
        case Operation::Type::SetFlag:
            o[QStringLiteral("flag")] = op.flag;
            o[QStringLiteral("state")] = op.flagState;
            break;
        case Operation::Type::Check:
            o[QStringLiteral("repair")] = op.repair;
            break;
        default:
            break;
        }
        if (op.type != Operation::Type::NewTable && op.type != Operation::Type::Create &&
            op.type != Operation::Type::Paste)
            o[QStringLiteral("number")] = op.number;
        if (!op.filesystem.isEmpty())
            o[QStringLiteral("fs")] = op.filesystem;
        if (!op.label.isEmpty())
            o[QStringLiteral("label")] = op.label;
        // Never the passphrase: a plan is a file anyone may read or mail around.
        if (!op.keyFile.isEmpty())
            o[QStringLiteral("key_file")] = op.keyFile;
        if (!op.name.isEmpty())
            o[QStringLiteral("name")] = op.name;
        if (!op.uuid.isEmpty())
            o[QStringLiteral("uuid")] = op.uuid;
        if (!op.oldUuid.isEmpty())
            o[QStringLiteral("old_uuid")] = op.oldUuid;
        if (!op.oldLabel.isEmpty())
            o[QStringLiteral("old_label")] = op.oldLabel;
        list.append(o);
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("operations"), list}}).toJson();
}

} // namespace partwise
