#include "ops/realignjson.h"

#include "report/jsonreader.h"
#include "report/layoutjson.h"

#include <QJsonArray>

#include <algorithm>

namespace partwise {

QJsonObject partitionMoveToJson(const PartitionMove &m)
{
    return {{QStringLiteral("number"), m.number},
            {QStringLiteral("kind"), partitionKindName(m.kind)},
            {QStringLiteral("filesystem"), m.filesystem},
            {QStringLiteral("label"), m.label},
            {QStringLiteral("uuid"), m.uuid},
            {QStringLiteral("old_start"), m.oldStart},
            {QStringLiteral("old_end"), m.oldEnd},
            {QStringLiteral("new_start"), m.newStart},
            {QStringLiteral("new_end"), m.newEnd},
            {QStringLiteral("shrink_sectors"), m.shrinkSectors},
            {QStringLiteral("recreate_swap"), m.recreateSwap},
            {QStringLiteral("grow"), m.grow}};
}

namespace {

constexpr int kMaxPartitionNumber = 256;
constexpr qint64 kMaxGrainBytes = qint64(1) << 40;

// Keeps the first problem of a document, as JsonReader does.
void refuse(QString *problem, const QString &sentence)
{
    if (problem->isEmpty())
        *problem = sentence;
}

// ---- names ---------------------------------------------------------------------------------

QString preferenceName(RealignPreference prefer)
{
    switch (prefer) {
    case RealignPreference::Shrink:
        return QStringLiteral("shrink");
    case RealignPreference::Move:
        return QStringLiteral("move");
    case RealignPreference::Cheapest:
        break;
    }
    return QStringLiteral("cheapest");
}

bool preferenceFromName(const QString &name, RealignPreference *prefer)
{
    for (const auto p :
         {RealignPreference::Cheapest, RealignPreference::Shrink, RealignPreference::Move})
        if (preferenceName(p) == name) {
            *prefer = p;
            return true;
        }
    return false;
}

bool healthFromName(const QString &name, DriveHealthStatus *status)
{
    for (const auto s : {DriveHealthStatus::Unknown, DriveHealthStatus::Good,
                         DriveHealthStatus::Warning, DriveHealthStatus::Failing})
        if (driveHealthName(s) == name) {
            *status = s;
            return true;
        }
    return false;
}

bool sourceFromName(const QString &name, PhysicalSource *source)
{
    for (const auto s :
         {PhysicalSource::Reported, PhysicalSource::Assumed, PhysicalSource::Measured})
        if (physicalSourceName(s) == name) {
            *source = s;
            return true;
        }
    return false;
}

// A partition that moves has data or holds logical partitions: never free space.
bool moveKindFromName(const QString &name, PartitionInfo::Kind *kind)
{
    for (const auto k : {PartitionInfo::Kind::Primary, PartitionInfo::Kind::Extended,
                         PartitionInfo::Kind::Logical})
        if (partitionKindName(k) == name) {
            *kind = k;
            return true;
        }
    return false;
}

// ---- writing -------------------------------------------------------------------------------

QJsonObject geometryJson(const AlignmentGeometry &g)
{
    return {{QStringLiteral("logical_sector_size"), g.logicalSectorSize},
            {QStringLiteral("physical_reported"), g.physicalReported},
            {QStringLiteral("physical_drive"), g.physicalDrive},
            {QStringLiteral("physical_measured"), g.physicalMeasured},
            {QStringLiteral("alignment_offset_measured"), g.alignmentOffsetMeasured},
            {QStringLiteral("write_penalty_measured"), g.writePenaltyMeasured},
            {QStringLiteral("physical_assumed"), g.physicalAssumed},
            {QStringLiteral("physical_source"), physicalSourceName(g.physicalSource)},
            {QStringLiteral("grain_bytes"), g.grainBytes},
            {QStringLiteral("alignment_offset_reported"), g.alignmentOffsetReported},
            {QStringLiteral("alignment_offset"), g.alignmentOffset},
            {QStringLiteral("optimal_io_honoured"), g.optimalIoHonoured}};
}

QJsonArray movesJson(const QList<PartitionMove> &moves)
{
    QJsonArray out;
    for (const PartitionMove &m : moves)
        out.append(partitionMoveToJson(m));
    return out;
}

QJsonObject choiceJson(const RealignChoice &c)
{
    QJsonArray options;
    for (const RealignOption &o : c.options)
        options.append(QJsonObject{{QStringLiteral("way"), realignWayName(o.way)},
                                   {QStringLiteral("moves"), movesJson(o.moves)},
                                   {QStringLiteral("bytes_to_move"), o.bytesToMove},
                                   {QStringLiteral("shrink_bytes"), o.shrinkBytes}});
    return {{QStringLiteral("number"), c.number},
            {QStringLiteral("options"), options},
            {QStringLiteral("chosen"), c.chosen}};
}

// A map by partition number as an object keyed by the number ({"2": ...}).
template <typename T> QJsonObject byNumberJson(const QMap<int, T> &map)
{
    QJsonObject out;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        out.insert(QString::number(it.key()), it.value());
    return out;
}

QJsonObject planToJson(const RealignPlan &plan)
{
    QJsonArray skipped;
    for (const RealignSkip &k : plan.skipped)
        skipped.append(QJsonObject{{QStringLiteral("number"), k.number},
                                   {QStringLiteral("reason"), k.reason},
                                   {QStringLiteral("misaligned"), k.misaligned}});
    QJsonArray choices;
    for (const RealignChoice &c : plan.choices)
        choices.append(choiceJson(c));
    return {{QStringLiteral("geometry"), geometryJson(plan.geometry)},
            {QStringLiteral("moves"), movesJson(plan.moves)},
            {QStringLiteral("skipped"), skipped},
            {QStringLiteral("choices"), choices},
            {QStringLiteral("bytes_in_use"), byNumberJson(plan.bytesInUse)}};
}

QJsonObject requestJson(const RealignRequest &r)
{
    QJsonArray partitions;
    for (const int n : r.partitions)
        partitions.append(n);
    QMap<int, QString> ways;
    for (auto it = r.ways.cbegin(); it != r.ways.cend(); ++it)
        ways.insert(it.key(), realignWayName(it.value()));
    return {{QStringLiteral("partitions"), partitions},
            {QStringLiteral("include_sector_aligned"), r.includeSectorAligned},
            {QStringLiteral("prefer"), preferenceName(r.prefer)},
            {QStringLiteral("ways"), byNumberJson(ways)}};
}

// ---- reading -------------------------------------------------------------------------------

// What a plan's numbers must stay within: the disk the layout describes.
struct Bounds
{
    qint64 lastSector = 0;
    qint64 diskBytes = 0;
};

Bounds boundsOf(const DiskLayout &layout)
{
    const qint64 ss = layout.device.topology.logicalSectorSize;
    return {std::max<qint64>(0, layout.device.lengthSectors - 1),
            std::max(layout.device.sizeBytes, layout.device.lengthSectors * ss)};
}

int partitionNumber(JsonReader &r, const char *key)
{
    return int(r.integer(key, 1, kMaxPartitionNumber));
}

AlignmentGeometry readGeometry(const QJsonObject &o, QString *problem)
{
    JsonReader r(o, QStringLiteral("the plan's geometry's"), problem);
    AlignmentGeometry g;
    g.logicalSectorSize = r.integer("logical_sector_size", 512, 65536);
    g.physicalReported = r.integer("physical_reported", 512, 1 << 24);
    g.physicalDrive = r.integer("physical_drive", 0, 1 << 24);
    g.physicalMeasured = r.integer("physical_measured", 0, 1 << 24);
    g.alignmentOffsetMeasured = r.integer("alignment_offset_measured", 0, 1 << 24);
    g.writePenaltyMeasured = r.number("write_penalty_measured", 0, 1e6);
    g.physicalAssumed = r.integer("physical_assumed", 512, 1 << 24);
    if (!sourceFromName(r.string("physical_source"), &g.physicalSource))
        refuse(problem, QStringLiteral("the plan's geometry's \"physical_source\" is not one "
                                       "Partwise knows"));
    g.grainBytes = r.integer("grain_bytes", g.logicalSectorSize, kMaxGrainBytes);
    if (g.grainBytes % g.logicalSectorSize != 0)
        refuse(problem, QStringLiteral("the plan's geometry's \"grain_bytes\" is not a whole "
                                       "number of sectors"));
    g.alignmentOffsetReported = r.integer("alignment_offset_reported", -1, qint64(1) << 32);
    g.alignmentOffset = r.integer("alignment_offset", -1, qint64(1) << 32);
    g.optimalIoHonoured = r.boolean("optimal_io_honoured");
    return g;
}

PartitionMove readMove(const QJsonObject &o, const Bounds &b, const QString &where,
                       QString *problem)
{
    JsonReader r(o, where, problem);
    PartitionMove m;
    m.number = partitionNumber(r, "number");
    if (!moveKindFromName(r.string("kind"), &m.kind))
        refuse(problem, QStringLiteral("%1 \"kind\" is not one Partwise knows").arg(where));
    m.filesystem = r.string("filesystem");
    m.label = r.string("label");
    m.uuid = r.string("uuid");
    m.oldStart = r.integer("old_start", 0, b.lastSector);
    m.oldEnd = r.integer("old_end", m.oldStart, b.lastSector);
    m.newStart = r.integer("new_start", 0, b.lastSector);
    m.newEnd = r.integer("new_end", m.newStart, b.lastSector);
    m.shrinkSectors = r.integer("shrink_sectors", 0, m.oldLength());
    m.recreateSwap = r.boolean("recreate_swap");
    m.grow = r.boolean("grow");
    return m;
}

QList<PartitionMove> readMoves(JsonReader &r, const Bounds &b, const QString &where,
                               QString *problem)
{
    QList<PartitionMove> moves;
    for (const QJsonValue &v : r.array("moves", kMaxRegions))
        moves << readMove(v.toObject(), b,
                          QStringLiteral("%1 move %2's").arg(where).arg(moves.size()), problem);
    return moves;
}

RealignOption readOption(const QJsonObject &o, const Bounds &b, const QString &where,
                         QString *problem)
{
    JsonReader r(o, where, problem);
    RealignOption option;
    if (!realignWayFromName(r.string("way"), &option.way))
        refuse(problem, QStringLiteral("%1 \"way\" is not one Partwise knows").arg(where));
    option.moves = readMoves(r, b, where, problem);
    option.bytesToMove = r.integer("bytes_to_move", 0, b.diskBytes);
    option.shrinkBytes = r.integer("shrink_bytes", 0, b.diskBytes);
    return option;
}

RealignChoice readChoice(const QJsonObject &o, const Bounds &b, int index, QString *problem)
{
    const QString where = QStringLiteral("the plan's choice %1's").arg(index);
    JsonReader r(o, where, problem);
    RealignChoice c;
    c.number = partitionNumber(r, "number");
    for (const QJsonValue &v : r.array("options", kMaxRegions))
        c.options << readOption(v.toObject(), b,
                                QStringLiteral("%1 option %2's").arg(where).arg(c.options.size()),
                                problem);
    // A choice always has the option taken: taken() indexes the list.
    c.chosen = int(r.integer("chosen", 0, std::max<qint64>(0, c.options.size() - 1)));
    if (c.options.isEmpty())
        refuse(problem, QStringLiteral("%1 \"options\" is empty").arg(where));
    return c;
}

// An object keyed by partition number; `read` takes each value from `r` under its key.
template <typename Read>
void readByNumber(const QJsonObject &o, const QString &where, QString *problem, Read read)
{
    JsonReader r(o, where, problem);
    for (const QString &key : o.keys()) {
        bool isNumber = false;
        const int n = key.toInt(&isNumber);
        if (!isNumber || n < 1 || n > kMaxPartitionNumber || QString::number(n) != key) {
            refuse(problem, QStringLiteral("%1 key \"%2\" is not a partition number from 1 to %3")
                                .arg(where, key.left(20))
                                .arg(kMaxPartitionNumber));
            return;
        }
        read(r, n, key.toLatin1());
    }
}

RealignPlan readPlan(const QJsonObject &o, const Bounds &b, QString *problem)
{
    JsonReader r(o, QStringLiteral("the plan's"), problem);
    RealignPlan plan;
    plan.geometry = readGeometry(r.object("geometry"), problem);
    plan.moves = readMoves(r, b, QStringLiteral("the plan's"), problem);
    for (const QJsonValue &v : r.array("skipped", kMaxRegions)) {
        JsonReader k(v.toObject(), QStringLiteral("the plan's skip %1's").arg(plan.skipped.size()),
                     problem);
        const int number = partitionNumber(k, "number");
        const QString reason = k.string("reason");
        plan.skipped << RealignSkip{number, reason, k.boolean("misaligned")};
    }
    for (const QJsonValue &v : r.array("choices", kMaxRegions))
        plan.choices << readChoice(v.toObject(), b, int(plan.choices.size()), problem);
    readByNumber(r.object("bytes_in_use"), QStringLiteral("the plan's \"bytes_in_use\""), problem,
                 [&](JsonReader &in, int n, const QByteArray &key) { // -1: not known
                     plan.bytesInUse.insert(n, in.integer(key.constData(), -1, b.diskBytes));
                 });
    return plan;
}

RealignRequest readRequest(const QJsonObject &o, QString *problem)
{
    JsonReader r(o, QStringLiteral("the request's"), problem);
    RealignRequest request;
    for (const QJsonValue &v : r.array("partitions", kMaxPartitionNumber)) {
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 1 || d > kMaxPartitionNumber || d != double(int(d)))
            refuse(problem, QStringLiteral("the request's \"partitions\" is not a list of "
                                           "partition numbers"));
        request.partitions << int(d);
    }
    request.includeSectorAligned = r.boolean("include_sector_aligned");
    if (!preferenceFromName(r.string("prefer"), &request.prefer))
        refuse(problem, QStringLiteral("the request's \"prefer\" is not one Partwise knows"));
    readByNumber(r.object("ways"), QStringLiteral("the request's \"ways\""), problem,
                 [&](JsonReader &in, int n, const QByteArray &key) {
                     RealignWay way = RealignWay::MoveUp;
                     if (!realignWayFromName(in.string(key.constData()), &way))
                         refuse(problem,
                                QStringLiteral("the request's \"ways\" \"%1\" is not a way "
                                               "Partwise knows")
                                    .arg(n));
                     request.ways.insert(n, way);
                 });
    return request;
}

DriveHealth readHealth(const QJsonObject &o, QString *problem)
{
    JsonReader r(o, QStringLiteral("the drive health's"), problem);
    DriveHealth health;
    if (!healthFromName(r.string("status"), &health.status))
        refuse(problem, QStringLiteral("the drive health's \"status\" is not one Partwise knows"));
    health.findings = r.strings("findings");
    return health;
}

move::JournalDurability readDurability(const QJsonObject &o, QString *problem)
{
    JsonReader r(o, QStringLiteral("the journal durability's"), problem);
    move::JournalDurability d;
    d.survivesPowerCut = r.boolean("survives_power_cut");
    d.filesystem = r.string("filesystem");
    d.warning = r.string("warning");
    return d;
}

QString discardWayName(DiscardWay way)
{
    return way == DiscardWay::Trim         ? QStringLiteral("trim")
           : way == DiscardWay::PunchHoles ? QStringLiteral("holes")
                                           : QStringLiteral("none");
}

QJsonObject discardJson(const RealignDiscard &d)
{
    return {{QStringLiteral("way"), discardWayName(d.way)},
            {QStringLiteral("granularity"), d.granularity},
            {QStringLiteral("why"), d.why},
            {QStringLiteral("bytes"), qint64(d.bytes)}};
}

// Absent from helpers older than the key: nothing is discarded, for want of a reason none.
RealignDiscard readDiscard(const QJsonObject &o, const Bounds &b, QString *problem)
{
    RealignDiscard d;
    if (o.isEmpty()) {
        d.why = QStringLiteral("the helper does not say");
        return d;
    }
    JsonReader r(o, QStringLiteral("the discard's"), problem);
    const QString way = r.string("way");
    bool known = false;
    for (DiscardWay w : {DiscardWay::None, DiscardWay::PunchHoles, DiscardWay::Trim})
        if (discardWayName(w) == way) {
            d.way = w;
            known = true;
        }
    if (!known)
        refuse(problem, QStringLiteral("the discard's \"way\" is not one Partwise knows"));
    d.granularity = r.integer("granularity", 0, qint64(1) << 30);
    d.why = r.string("why");
    d.bytes = quint64(r.integer("bytes", 0, b.diskBytes));
    return d;
}

// What the plan says about the disk must be said in the layout's sectors.
void checkGeometryAgrees(const PreparedRealign &p, QString *problem)
{
    if (p.ok && p.plan.geometry.logicalSectorSize != p.layout.device.topology.logicalSectorSize)
        refuse(problem, QStringLiteral("the plan's geometry's \"logical_sector_size\" is not the "
                                       "layout's"));
}

} // namespace

QJsonObject preparedRealignToJson(const PreparedRealign &p)
{
    return {{QStringLiteral("ok"), p.ok},
            {QStringLiteral("error"), p.error},
            {QStringLiteral("layout"), layoutToJson(p.layout)},
            {QStringLiteral("plan"), planToJson(p.plan)},
            {QStringLiteral("request"), requestJson(p.request)},
            {QStringLiteral("copied_whole"), byNumberJson(p.copiedWhole)},
            {QStringLiteral("layer_notes"), QJsonArray::fromStringList(p.layerNotes)},
            {QStringLiteral("boot_fixes"), QJsonArray::fromStringList(p.bootFixes)},
            {QStringLiteral("boot_breaks"), QJsonArray::fromStringList(p.bootBreaks)},
            {QStringLiteral("drive_health"),
             QJsonObject{
                 {QStringLiteral("status"), driveHealthName(p.driveHealth.status)},
                 {QStringLiteral("findings"), QJsonArray::fromStringList(p.driveHealth.findings)}}},
            {QStringLiteral("journal_path"), p.journalPath},
            {QStringLiteral("discard"), discardJson(p.discard)},
            {QStringLiteral("journal_durability"),
             QJsonObject{{QStringLiteral("survives_power_cut"), p.journal.survivesPowerCut},
                         {QStringLiteral("filesystem"), p.journal.filesystem},
                         {QStringLiteral("warning"), p.journal.warning}}}};
}

bool preparedRealignFromJson(const QJsonObject &json, PreparedRealign *prepared, QString *error)
{
    QString problem;
    JsonReader top(json, QStringLiteral("the realignment's"), &problem);
    PreparedRealign out;
    const QJsonObject layout = top.object("layout");
    if (problem.isEmpty() && !layoutFromJson(layout, &out.layout, error))
        return false; // its error names the layout's field
    const Bounds bounds = boundsOf(out.layout);
    out.ok = top.boolean("ok");
    out.error = top.string("error");
    out.plan = readPlan(top.object("plan"), bounds, &problem);
    out.request = readRequest(top.object("request"), &problem);
    readByNumber(top.object("copied_whole"), QStringLiteral("the realignment's \"copied_whole\""),
                 &problem, [&](JsonReader &in, int n, const QByteArray &key) {
                     out.copiedWhole.insert(n, in.string(key.constData()));
                 });
    out.layerNotes = top.strings("layer_notes");
    out.bootFixes = top.strings("boot_fixes");
    out.bootBreaks = top.strings("boot_breaks");
    out.driveHealth = readHealth(top.object("drive_health"), &problem);
    out.journalPath = top.string("journal_path");
    out.journal = readDurability(top.object("journal_durability"), &problem);
    if (const QJsonValue discard = json.value(QStringLiteral("discard"));
        !discard.isUndefined() && !discard.isObject())
        refuse(&problem, QStringLiteral("the realignment's \"discard\" is not an object"));
    out.discard = readDiscard(json.value(QStringLiteral("discard")).toObject(), bounds, &problem);
    checkGeometryAgrees(out, &problem);
    if (!problem.isEmpty()) {
        *error = QStringLiteral("The realignment plan cannot be used: %1.").arg(problem);
        return false;
    }
    *prepared = std::move(out);
    return true;
}

QJsonObject realignResultToJson(const RealignResult &r)
{
    return {{QStringLiteral("ok"), r.ok},
            {QStringLiteral("resumable"), r.resumable},
            {QStringLiteral("error"), r.error},
            {QStringLiteral("journal"), r.journalPath},
            {QStringLiteral("checks"), QJsonArray::fromStringList(r.checks)},
            {QStringLiteral("shrink_refused"), r.shrinkRefused}};
}

bool realignResultFromJson(const QJsonObject &json, RealignResult *result, QString *error)
{
    QString problem;
    JsonReader r(json, QStringLiteral("the realignment result's"), &problem);
    RealignResult out;
    out.ok = r.boolean("ok");
    out.resumable = r.boolean("resumable");
    out.error = r.string("error");
    out.journalPath = r.string("journal");
    out.checks = r.strings("checks");
    // Absent from helpers older than the key (the protocol is the same): nothing refused.
    out.shrinkRefused =
        int(r.optionalInteger("shrink_refused", 0, kMaxPartitionNumber).value_or(0));
    if (!problem.isEmpty()) {
        *error = QStringLiteral("The realignment's result cannot be used: %1.").arg(problem);
        return false;
    }
    *result = std::move(out);
    return true;
}

} // namespace partwise
