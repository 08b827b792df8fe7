#include "ops/writejournal.h"

#include "base/atomicfile.h"
#include "base/nofollowfile.h"
#include "device/diskidentity.h"
#include "device/imagesectorsize.h"
#include "move/checksum.h"
#include "move/movejournal.h"
#include "move/redorecord.h"
#include "ops/journaldamage.h"
#include "ops/planfile.h"
#include "ops/realignjson.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

// A journal holds a plan and a table dump: kilobytes. Far more is not one of ours.
constexpr qint64 kMaxJournalBytes = qint64(16) << 20;

using Phase = WriteJournal::Phase;

const Phase kPhases[] = {Phase::Pending, Phase::Shrunk,       Phase::Moving,
                         Phase::Moved,   Phase::TableUpdated, Phase::Done};
const PartitionInfo::Kind kKinds[] = {PartitionInfo::Kind::Primary, PartitionInfo::Kind::Extended,
                                      PartitionInfo::Kind::Logical, PartitionInfo::Kind::Free};

const QStringList kRootKeys{QStringLiteral("checksum"), QStringLiteral("format"),
                            QStringLiteral("journal")};
const QStringList kJournalKeys{QStringLiteral("backup_folder"),  QStringLiteral("disk_identity"),
                               QStringLiteral("grain_bytes"),    QStringLiteral("moves"),
                               QStringLiteral("next_operation"), QStringLiteral("operations"),
                               QStringLiteral("sector_size"),    QStringLiteral("table_before"),
                               QStringLiteral("target"),         QStringLiteral("trust_drive"),
                               QStringLiteral("verify")};
const QStringList kMoveKeys{
    QStringLiteral("filesystem"), QStringLiteral("grow"),          QStringLiteral("kind"),
    QStringLiteral("label"),      QStringLiteral("new_end"),       QStringLiteral("new_start"),
    QStringLiteral("number"),     QStringLiteral("old_end"),       QStringLiteral("old_start"),
    QStringLiteral("phase"),      QStringLiteral("recreate_swap"), QStringLiteral("shrink_sectors"),
    QStringLiteral("uuid")};

QJsonObject moveToJson(const PartitionMove &m, Phase phase)
{
    QJsonObject move = partitionMoveToJson(m);
    move.insert(QStringLiteral("phase"), journalPhaseName(phase));
    return move;
}

QString checksumText(const QJsonObject &content)
{
    const QByteArray compact = QJsonDocument(content).toJson(QJsonDocument::Compact);
    return QStringLiteral("%1").arg(
        move::checksum64(compact.constData(), std::size_t(compact.size())), 16, 16,
        QLatin1Char('0'));
}

// The bytes save() writes for `content` ({"format", "journal"}).
QByteArray fileBytes(QJsonObject content)
{
    content.insert(QStringLiteral("checksum"), checksumText(content));
    return QJsonDocument(content).toJson(QJsonDocument::Indented);
}

QString discardName(DiscardWay way)
{
    return way == DiscardWay::Trim         ? QStringLiteral("trim")
           : way == DiscardWay::PunchHoles ? QStringLiteral("holes")
                                           : QString();
}

// Reads fields strictly; the first problem found is kept, naming the field.
class StrictReader
{
public:
    QString problem;

    bool keys(const QJsonObject &o, const QStringList &expected, const QString &where)
    {
        for (const QString &key : expected)
            if (!o.contains(key))
                return fail(QStringLiteral("%1 has no \"%2\"").arg(where, key));
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!expected.contains(it.key()))
                return fail(QStringLiteral("%1 has an unknown field \"%2\"").arg(where, it.key()));
        return true;
    }
    QString string(const QJsonObject &o, const QString &key, const QString &where)
    {
        const QJsonValue v = o.value(key);
        if (!v.isString())
            fail(QStringLiteral("%1 \"%2\" is not a string").arg(where, key));
        return v.toString();
    }
    bool boolean(const QJsonObject &o, const QString &key, const QString &where)
    {
        const QJsonValue v = o.value(key);
        if (!v.isBool())
            fail(QStringLiteral("%1 \"%2\" is not true or false").arg(where, key));
        return v.toBool();
    }
    // A whole number JSON holds exactly (doubles hold integers up to 2^53), at least `min`.
    qint64 integer(const QJsonObject &o, const QString &key, const QString &where, qint64 min)
    {
        const QJsonValue v = o.value(key);
        const double d = v.toDouble();
        if (!v.isDouble() || d != std::floor(d) || std::fabs(d) > 9007199254740992.0) {
            fail(QStringLiteral("%1 \"%2\" is not a whole number").arg(where, key));
            return 0;
        }
        if (qint64(d) < min)
            fail(QStringLiteral("%1 \"%2\" is %3, below %4")
                     .arg(where, key)
                     .arg(qint64(d))
                     .arg(min));
        return qint64(d);
    }
    bool fail(const QString &what)
    {
        if (problem.isEmpty())
            problem = what;
        return false;
    }
};

bool moveFromJson(const QJsonObject &o, int index, StrictReader &r, PartitionMove *m, Phase *phase)
{
    const QString where = QStringLiteral("move %1").arg(index + 1);
    if (!r.keys(o, kMoveKeys, where))
        return false;
    m->number = int(r.integer(o, QStringLiteral("number"), where, 1));
    if (m->number > 65535)
        return r.fail(QStringLiteral("%1 names partition %2").arg(where).arg(m->number));
    const QString kind = r.string(o, QStringLiteral("kind"), where);
    bool kindKnown = false;
    for (PartitionInfo::Kind k : kKinds)
        if (partitionKindName(k) == kind && k != PartitionInfo::Kind::Free) {
            m->kind = k;
            kindKnown = true;
        }
    if (!kindKnown)
        r.fail(QStringLiteral("%1 has an unknown kind \"%2\"").arg(where, kind));
    m->filesystem = r.string(o, QStringLiteral("filesystem"), where);
    m->label = r.string(o, QStringLiteral("label"), where);
    m->uuid = r.string(o, QStringLiteral("uuid"), where);
    m->oldStart = r.integer(o, QStringLiteral("old_start"), where, 0);
    m->oldEnd = r.integer(o, QStringLiteral("old_end"), where, m->oldStart);
    m->newStart = r.integer(o, QStringLiteral("new_start"), where, 0);
    m->newEnd = r.integer(o, QStringLiteral("new_end"), where, m->newStart);
    m->shrinkSectors = r.integer(o, QStringLiteral("shrink_sectors"), where, 0);
    // Only a partition that gets smaller gives up sectors, at most the difference.
    if (r.problem.isEmpty() &&
        m->shrinkSectors > std::max<qint64>(0, m->oldLength() - m->newLength()))
        r.fail(QStringLiteral("%1 shrinks by %2 sectors, but goes from %3 to %4 sectors")
                   .arg(where)
                   .arg(m->shrinkSectors)
                   .arg(m->oldLength())
                   .arg(m->newLength()));
    m->recreateSwap = r.boolean(o, QStringLiteral("recreate_swap"), where);
    m->grow = r.boolean(o, QStringLiteral("grow"), where);
    const QString name = r.string(o, QStringLiteral("phase"), where);
    bool phaseKnown = false;
    for (Phase p : kPhases)
        if (journalPhaseName(p) == name) {
            *phase = p;
            phaseKnown = true;
        }
    if (!phaseKnown)
        r.fail(QStringLiteral("%1 has an unknown phase \"%2\"").arg(where, name));
    return r.problem.isEmpty();
}

// The problem with `raw` as a journal file: its format, checksum and bytes; or empty, and then
// `journal` is its content.
QString checkFile(const QByteArray &raw, QJsonObject *journal)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &parse);
    if (parse.error != QJsonParseError::NoError)
        return QStringLiteral("it is not valid JSON (%1 at byte %2)")
            .arg(parse.errorString())
            .arg(parse.offset);
    if (!doc.isObject())
        return QStringLiteral("it is not a JSON object");
    const QJsonObject root = doc.object();
    if (!root.contains(QStringLiteral("format")) && root.contains(QStringLiteral("moves")))
        return QStringLiteral("it was written by an older version of Partwise, without a "
                              "checksum, so it cannot be checked");
    StrictReader r;
    if (!r.keys(root, kRootKeys, QStringLiteral("the file")))
        return r.problem;
    const qint64 format = r.integer(root, QStringLiteral("format"), QStringLiteral("the file"), 0);
    if (!r.problem.isEmpty())
        return r.problem;
    if (format != WriteJournal::kFormat)
        return QStringLiteral("it has format %1, and this version of Partwise reads format %2")
            .arg(format)
            .arg(WriteJournal::kFormat);
    const QString stored = r.string(root, QStringLiteral("checksum"), QStringLiteral("the file"));
    if (!root.value(QStringLiteral("journal")).isObject())
        r.fail(QStringLiteral("\"journal\" is not an object"));
    if (!r.problem.isEmpty())
        return r.problem;
    QJsonObject content = root;
    content.remove(QStringLiteral("checksum"));
    if (stored != checksumText(content))
        return QStringLiteral("its checksum does not match its content");
    // Whitespace and number spellings are not in the checksum: the file as a whole must be
    // what save() wrote.
    if (raw != fileBytes(content))
        return QStringLiteral("it is not byte for byte what Partwise wrote");
    *journal = root.value(QStringLiteral("journal")).toObject();
    return {};
}

// The operations of an Apply, read strictly: the plan-file parser refuses unknown ops and
// nonsense values, and the numbers are checked against the list.
QString checkOperations(const QJsonObject &o, StrictReader &r, WriteJournal *j)
{
    const QString where = QStringLiteral("the journal");
    if (!o.value(QStringLiteral("operations")).isArray())
        return QStringLiteral("\"operations\" is not a list");
    const QJsonArray list = o.value(QStringLiteral("operations")).toArray();
    QString why;
    const QByteArray plan =
        QJsonDocument(QJsonObject{{QStringLiteral("operations"), list}}).toJson();
    if (!parsePlan(plan, &j->operations, &why))
        return why;
    // The parser fills in defaults and passes over fields it does not know: each operation
    // must be exactly what save() writes for it.
    const QJsonArray written = QJsonDocument::fromJson(serializePlan(j->operations))
                                   .object()
                                   .value(QStringLiteral("operations"))
                                   .toArray();
    for (int i = 0; i < list.size(); ++i) {
        const QJsonObject stored = list.at(i).toObject(), expected = written.at(i).toObject();
        const QString op = QStringLiteral("operation %1").arg(i + 1);
        for (const QString &key : expected.keys())
            if (!stored.contains(key))
                return QStringLiteral("%1 has no \"%2\"").arg(op, key);
        for (const QString &key : stored.keys())
            if (!expected.contains(key))
                return QStringLiteral("%1 has an unknown field \"%2\"").arg(op, key);
        if (stored != expected)
            return QStringLiteral("%1 is not as Partwise writes it").arg(op);
    }
    j->nextOperation = int(r.integer(o, QStringLiteral("next_operation"), where, 0));
    j->tableBefore = r.string(o, QStringLiteral("table_before"), where);
    j->policy.grainBytes = r.integer(o, QStringLiteral("grain_bytes"), where, 512);
    j->policy.trustDrive = r.boolean(o, QStringLiteral("trust_drive"), where);
    if (!r.problem.isEmpty())
        return r.problem;
    if (j->nextOperation > j->operations.size())
        return QStringLiteral("its next operation %1 is past its %2 operations")
            .arg(j->nextOperation + 1)
            .arg(j->operations.size());
    if (j->operations.isEmpty() && (j->nextOperation != 0 || !j->tableBefore.isEmpty()))
        return QStringLiteral("it has no operations, yet records progress through them");
    // What tableSummary() writes: the table's type, then number:start-end of each partition.
    static const QRegularExpression summary(QStringLiteral(R"(^table=[a-z]*(\|\d+:\d+-\d+)*$)"));
    if (!j->tableBefore.isEmpty() && !summary.match(j->tableBefore).hasMatch())
        return QStringLiteral("its \"table_before\" is not a table summary");
    if (j->policy.grainBytes % 512 != 0)
        return QStringLiteral("its grain of %1 bytes is not a whole number of sectors")
            .arg(j->policy.grainBytes);
    return {};
}

QString checkMoves(const QJsonArray &list, StrictReader &r, WriteJournal *j)
{
    for (int i = 0; i < list.size(); ++i) {
        if (!list.at(i).isObject())
            return QStringLiteral("move %1 is not an object").arg(i + 1);
        PartitionMove m;
        Phase phase = Phase::Pending;
        if (!moveFromJson(list.at(i).toObject(), i, r, &m, &phase))
            return r.problem;
        j->moves << m;
        j->phases << phase;
    }
    // Data moves run one after the other (every shrink may come first): after the first move
    // not done, none has started moving.
    const int next = j->nextUnfinished();
    for (int i = next + 1; next >= 0 && i < j->phases.size(); ++i)
        if (j->phases[i] != Phase::Pending && j->phases[i] != Phase::Shrunk)
            return QStringLiteral("move %1 is \"%2\" while move %3 before it is not done")
                .arg(i + 1)
                .arg(journalPhaseName(j->phases[i]))
                .arg(next + 1);
    return {};
}

// An Apply records the table before each operation starts; a Resize under way also has its
// move. One without the other is damage: resume would plan the Resize again from a disk whose
// data may be half moved.
QString checkProgress(const WriteJournal &j)
{
    if (!j.isApply())
        return {};
    const bool started = !j.tableBefore.isEmpty();
    const bool resizing = j.nextOperation < j.operations.size() &&
                          j.operations.at(j.nextOperation).type == Operation::Type::Resize;
    if (!j.moves.isEmpty() && !(started && resizing))
        return QStringLiteral("it records a move, but operation %1 is no Resize under way")
            .arg(j.nextOperation + 1);
    if (j.moves.isEmpty() && started && resizing)
        return QStringLiteral("operation %1, a Resize, was under way, but no move is recorded")
            .arg(j.nextOperation + 1);
    return {};
}

// The problem with the journal's content, or empty when it is sound (then `journal` is filled).
QString checkContent(const QJsonObject &o, WriteJournal *journal)
{
    StrictReader r;
    const QString where = QStringLiteral("the journal");
    WriteJournal j;
    // The one optional field: written only for a realignment that discards afterwards.
    QJsonObject required = o;
    if (const QJsonValue discard = required.take(QStringLiteral("discard"));
        !discard.isUndefined()) {
        for (DiscardWay way : {DiscardWay::Trim, DiscardWay::PunchHoles})
            if (discard == QJsonValue(discardName(way)))
                j.discard = way;
        if (j.discard == DiscardWay::None)
            return QStringLiteral("its \"discard\" is neither \"trim\" nor \"holes\"");
    }
    if (!r.keys(required, kJournalKeys, where))
        return r.problem;
    j.target = r.string(o, QStringLiteral("target"), where);
    j.diskIdentity = r.string(o, QStringLiteral("disk_identity"), where);
    j.sectorSize = r.integer(o, QStringLiteral("sector_size"), where, 0);
    j.verify = r.boolean(o, QStringLiteral("verify"), where);
    j.backupFolder = r.string(o, QStringLiteral("backup_folder"), where);
    if (!o.value(QStringLiteral("moves")).isArray())
        r.fail(QStringLiteral("\"moves\" is not a list"));
    if (!r.problem.isEmpty())
        return r.problem;
    if (j.target.isEmpty())
        return QStringLiteral("it names no target disk");
    if (j.backupFolder.isEmpty())
        return QStringLiteral("it names no table backup folder");
    if (!isSupportedSectorSize(j.sectorSize))
        return QStringLiteral("its sector size %1 is not 512, 1024, 2048 or 4096")
            .arg(j.sectorSize);
    if (const QString problem = checkOperations(o, r, &j); !problem.isEmpty())
        return problem;
    const QJsonArray list = o.value(QStringLiteral("moves")).toArray();
    if (list.isEmpty() && j.operations.isEmpty())
        return QStringLiteral("it lists no partition to move and no operation to apply");
    if (const QString problem = checkMoves(list, r, &j); !problem.isEmpty())
        return problem;
    if (const QString problem = checkProgress(j); !problem.isEmpty())
        return problem;
    *journal = j;
    return {};
}

// The problem with `raw` as a journal, or empty when it is sound (then `journal` is filled).
QString check(const QByteArray &raw, WriteJournal *journal)
{
    QJsonObject content;
    if (const QString problem = checkFile(raw, &content); !problem.isEmpty())
        return problem;
    return checkContent(content, journal);
}

} // namespace

QString journalPhaseName(WriteJournal::Phase phase)
{
    switch (phase) {
    case WriteJournal::Phase::Pending:
        return QStringLiteral("pending");
    case WriteJournal::Phase::Shrunk:
        return QStringLiteral("shrunk");
    case WriteJournal::Phase::Moving:
        return QStringLiteral("moving");
    case WriteJournal::Phase::Moved:
        return QStringLiteral("moved");
    case WriteJournal::Phase::TableUpdated:
        return QStringLiteral("table-updated");
    case WriteJournal::Phase::Done:
        return QStringLiteral("done");
    }
    return QString();
}

QString WriteJournal::defaultPath(const QString &target, const QString &stateDir)
{
    return move::MoveJournal::defaultPath(target, stateDir) + QStringLiteral(".realign");
}

bool WriteJournal::save(const QString &path, QString *error) const
{
    QJsonArray list;
    for (int i = 0; i < moves.size(); ++i)
        list.append(moveToJson(moves[i], phases.value(i)));
    QJsonObject journal{
        {QStringLiteral("target"), target},
        {QStringLiteral("disk_identity"), diskIdentity},
        {QStringLiteral("sector_size"), sectorSize},
        {QStringLiteral("verify"), verify},
        {QStringLiteral("backup_folder"), backupFolder},
        {QStringLiteral("moves"), list},
        {QStringLiteral("operations"), QJsonDocument::fromJson(serializePlan(operations))
                                           .object()
                                           .value(QStringLiteral("operations"))},
        {QStringLiteral("next_operation"), nextOperation},
        {QStringLiteral("table_before"), tableBefore},
        {QStringLiteral("grain_bytes"), policy.grainBytes},
        {QStringLiteral("trust_drive"), policy.trustDrive}};
    if (discard != DiscardWay::None)
        journal.insert(QStringLiteral("discard"), discardName(discard));
    const QByteArray data = fileBytes(
        QJsonObject{{QStringLiteral("format"), kFormat}, {QStringLiteral("journal"), journal}});
    if (!move::MoveJournal::makeFolderFor(path)) {
        *error = QStringLiteral("Cannot create a safe folder for the journal %1; nothing was "
                                "changed.")
                     .arg(path);
        return false;
    }
    const AtomicWrite written = writeFileAtomically(path, data);
    if (written.failure == AtomicWrite::Failure::Write) {
        *error =
            QStringLiteral("Cannot write the journal %1: %2").arg(written.tempPath, written.reason);
        return false;
    }
    if (!written.ok()) {
        *error = QStringLiteral("Cannot put the journal in place at %1.").arg(path);
        return false;
    }
    return true;
}

bool WriteJournal::load(const QString &path, WriteJournal *journal, QString *error)
{
    if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink()) {
        *error = QStringLiteral("There is no interrupted realignment or Apply at %1.").arg(path);
        return false;
    }
    // Read as a regular file of bounded size, never through a link: a journal is a few
    // kilobytes, and whatever it says is run.
    QByteArray raw;
    QString why;
    if (!readRegularFileBounded(path, kMaxJournalBytes, &raw, &why)) {
        *error = QStringLiteral("Cannot read the journal %1: %2. Nothing was "
                                "changed; run the command again once it is readable.")
                     .arg(path, why);
        return false;
    }
    const QString problem = check(raw, journal);
    if (!problem.isEmpty()) {
        *error = describeDamagedJournal(path, raw, problem, kMoveKeys);
        return false;
    }
    return true;
}

bool WriteJournal::remove(const QString &path)
{
    // Its records first: one left without its journal could meet a later job's same step.
    move::removeRedoRecordsOf(path);
    return QFile::remove(path) && syncFolderOf(path);
}

int WriteJournal::nextUnfinished() const
{
    for (int i = 0; i < phases.size(); ++i)
        if (phases[i] != Phase::Done)
            return i;
    return -1;
}

QString interruptedWriteJournal(const QString &target, const QString &journalPath)
{
    if (!QFileInfo::exists(journalPath))
        return {};
    WriteJournal journal;
    QString why;
    if (WriteJournal::load(journalPath, &journal, &why) &&
        !isSameDisk(journal.diskIdentity, target, &why))
        return {};
    return journalPath;
}

} // namespace partwise
