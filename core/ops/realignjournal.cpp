#include "ops/realignjournal.h"

#include "move/Checksum.h"
#include "move/MoveJournal.h"
#include "ops/tablebackup.h"

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

namespace {

using Phase = RealignJournal::Phase;

const Phase kPhases[] = {Phase::Pending, Phase::Shrunk,       Phase::Moving,
                         Phase::Moved,   Phase::TableUpdated, Phase::Done};
const PartitionInfo::Kind kKinds[] = {PartitionInfo::Kind::Primary, PartitionInfo::Kind::Extended,
                                      PartitionInfo::Kind::Logical, PartitionInfo::Kind::Free};

const QStringList kRootKeys{QStringLiteral("checksum"), QStringLiteral("format"),
                            QStringLiteral("journal")};
const QStringList kJournalKeys{QStringLiteral("backup_folder"), QStringLiteral("moves"),
                               QStringLiteral("sector_size"), QStringLiteral("target"),
                               QStringLiteral("verify")};
const QStringList kMoveKeys{
    QStringLiteral("filesystem"),    QStringLiteral("kind"),           QStringLiteral("label"),
    QStringLiteral("new_end"),       QStringLiteral("new_start"),      QStringLiteral("number"),
    QStringLiteral("old_end"),       QStringLiteral("old_start"),      QStringLiteral("phase"),
    QStringLiteral("recreate_swap"), QStringLiteral("shrink_sectors"), QStringLiteral("uuid")};

bool syncFolderOf(const QString &path)
{
    const int fd =
        ::open(QFileInfo(path).absolutePath().toLocal8Bit().constData(), O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

QJsonObject moveToJson(const PartitionMove &m, Phase phase)
{
    return QJsonObject{{QStringLiteral("number"), m.number},
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
                       {QStringLiteral("phase"), realignPhaseName(phase)}};
}

QString checksumText(const QJsonObject &content)
{
    const QByteArray compact = QJsonDocument(content).toJson(QJsonDocument::Compact);
    return QStringLiteral("%1").arg(
        partwise::move::checksum64(compact.constData(), std::size_t(compact.size())), 16, 16,
        QLatin1Char('0'));
}

// The bytes save() writes for `content` ({"format", "journal"}).
QByteArray fileBytes(QJsonObject content)
{
    content.insert(QStringLiteral("checksum"), checksumText(content));
    return QJsonDocument(content).toJson(QJsonDocument::Indented);
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
    const QString name = r.string(o, QStringLiteral("phase"), where);
    bool phaseKnown = false;
    for (Phase p : kPhases)
        if (realignPhaseName(p) == name) {
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
    if (format != RealignJournal::kFormat)
        return QStringLiteral("it has format %1, and this version of Partwise reads format %2")
            .arg(format)
            .arg(RealignJournal::kFormat);
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

// The problem with the journal's content, or empty when it is sound (then `journal` is filled).
QString checkContent(const QJsonObject &o, RealignJournal *journal)
{
    StrictReader r;
    const QString where = QStringLiteral("the journal");
    RealignJournal j;
    if (!r.keys(o, kJournalKeys, where))
        return r.problem;
    j.target = r.string(o, QStringLiteral("target"), where);
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
    if (j.sectorSize != 512 && j.sectorSize != 1024 && j.sectorSize != 2048 && j.sectorSize != 4096)
        return QStringLiteral("its sector size %1 is not 512, 1024, 2048 or 4096")
            .arg(j.sectorSize);
    const QJsonArray list = o.value(QStringLiteral("moves")).toArray();
    if (list.isEmpty())
        return QStringLiteral("it lists no partition to move");
    for (int i = 0; i < list.size(); ++i) {
        if (!list.at(i).isObject())
            return QStringLiteral("move %1 is not an object").arg(i + 1);
        PartitionMove m;
        Phase phase = Phase::Pending;
        if (!moveFromJson(list.at(i).toObject(), i, r, &m, &phase))
            return r.problem;
        j.moves << m;
        j.phases << phase;
    }
    // Data moves run one after the other (every shrink may come first): after the first move
    // not done, none has started moving.
    const int next = j.nextUnfinished();
    for (int i = next + 1; next >= 0 && i < j.phases.size(); ++i)
        if (j.phases[i] != Phase::Pending && j.phases[i] != Phase::Shrunk)
            return QStringLiteral("move %1 is \"%2\" while move %3 before it is not done")
                .arg(i + 1)
                .arg(realignPhaseName(j.phases[i]))
                .arg(next + 1);
    *journal = j;
    return {};
}

// The problem with `raw` as a journal, or empty when it is sound (then `journal` is filled).
QString check(const QByteArray &raw, RealignJournal *journal)
{
    QJsonObject content;
    if (const QString problem = checkFile(raw, &content); !problem.isEmpty())
        return problem;
    return checkContent(content, journal);
}

bool isBackup(const QString &folder)
{
    return !folder.isEmpty() &&
           QFileInfo::exists(QDir(folder).filePath(QStringLiteral("backup.json")));
}

// What can still be read from a damaged journal, field by field, with no trust in any of it.
struct Scraped
{
    QString target, backupFolder;
    QStringList paths; // every absolute path in it, in case the backup folder's key is damaged
    QList<QMap<QString, QString>> moves;
};

Scraped scrape(const QByteArray &raw)
{
    Scraped s;
    static const QRegularExpression pair(QStringLiteral(
        R"re("((?:[^"\\\n]|\\.)+)"\s*:\s*("(?:[^"\\\n]|\\.)*"|-?[0-9]+|true|false))re"));
    QMap<QString, QString> current;
    auto it = pair.globalMatch(QString::fromUtf8(raw));
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const QString key = match.captured(1);
        QString value = match.captured(2);
        if (value.startsWith(QLatin1Char('"')))
            value = QJsonDocument::fromJson(QStringLiteral("[%1]").arg(value).toUtf8())
                        .array()
                        .at(0)
                        .toString();
        if (value.startsWith(QLatin1Char('/')))
            s.paths << value;
        if (key == QLatin1String("target") && s.target.isEmpty())
            s.target = value;
        else if (key == QLatin1String("backup_folder") && s.backupFolder.isEmpty())
            s.backupFolder = value;
        if (!kMoveKeys.contains(key))
            continue;
        if (current.contains(key)) { // keys are unique per object: the next move starts
            s.moves << current;
            current.clear();
        }
        current.insert(key, value);
    }
    if (!current.isEmpty())
        s.moves << current;
    if (!isBackup(s.backupFolder)) {
        // Its quotes may be damaged too: any run of text that looks like a path will do.
        static const QRegularExpression bare(QStringLiteral(R"re(/[^"\s]+)re"));
        for (auto paths = bare.globalMatch(QString::fromUtf8(raw)); paths.hasNext();)
            s.paths << paths.next().captured(0);
        for (const QString &path : std::as_const(s.paths))
            if (isBackup(path))
                s.backupFolder = path;
    }
    return s;
}

// A damaged name may still point into the right folder: the newest backups next to where it
// points, or in the default backup folder.
QString backupCandidates(const QString &named)
{
    QStringList found;
    for (const QString &root : {QFileInfo(named).absolutePath(), defaultBackupRoot()}) {
        if (named.isEmpty() && root != defaultBackupRoot())
            continue;
        QStringList here;
        const QStringList names =
            QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed);
        for (const QString &name : names)
            if (isBackup(QDir(root).filePath(name)) && here.size() < 3)
                here << QDir(root).filePath(name);
        found += here;
    }
    found.removeDuplicates();
    if (found.isEmpty())
        return QStringLiteral("Look for the newest folder named after the disk under %1, or "
                              "under the --backup-dir that was given.")
            .arg(defaultBackupRoot());
    return QStringLiteral("The newest backups found nearby (names end in the time they were "
                          "taken): %1.")
        .arg(found.join(QStringLiteral(", ")));
}

QString phaseMeaning(const QString &phase, const QString &newPlace, const QString &dataJournal)
{
    if (phase == QLatin1String("pending"))
        return QStringLiteral("not started; its data is at the old place");
    if (phase == QLatin1String("shrunk"))
        return QStringLiteral("its filesystem was shrunk to fit; its data is at the old place");
    if (phase == QLatin1String("moving"))
        return QStringLiteral("its data was being copied: part of it may be at the new place and "
                              "part at the old one; the data mover's journal %1 records which")
            .arg(dataJournal);
    if (phase == QLatin1String("moved"))
        return QStringLiteral("its data is at the new place but the table still shows the old "
                              "one: set the partition to sectors %1 (sfdisk, parted) instead of "
                              "restoring the old table")
            .arg(newPlace);
    if (phase == QLatin1String("table-updated"))
        return QStringLiteral("its data and the table are at the new place; only the "
                              "filesystem's check was left");
    if (phase == QLatin1String("done"))
        return QStringLiteral("done");
    return QStringLiteral("its phase cannot be read");
}

QString damaged(const QString &path, const QByteArray &raw, const QString &problem)
{
    const Scraped s = scrape(raw);
    const QString target = s.target.isEmpty() ? QStringLiteral("DISK") : s.target;
    QString text =
        QStringLiteral("The realignment journal %1 cannot be trusted: %2. Resuming from it "
                       "could write data to the wrong place, so Partwise will not.\n"
                       "What is left to do by hand (read from the damaged journal, so "
                       "unverified):\n")
            .arg(path, problem);
    if (isBackup(s.backupFolder))
        text += QStringLiteral("  The partition table from before the realignment is backed up "
                               "in %1; `partwise-cli restore %1 %2` puts it back, which is right "
                               "only for partitions whose data is still at the old place.\n")
                    .arg(s.backupFolder, target);
    else
        text += QStringLiteral("  The table backup folder it names (%1) cannot be found. %2 "
                               "`partwise-cli restore FOLDER %3` puts the table from before the "
                               "realignment back, which is right only for partitions whose "
                               "data is still at the old place.\n")
                    .arg(s.backupFolder.isEmpty() ? QStringLiteral("none") : s.backupFolder,
                         backupCandidates(s.backupFolder), target);
    auto field = [](const QMap<QString, QString> &m, const char *key) {
        return m.value(QLatin1String(key), QStringLiteral("?"));
    };
    for (const QMap<QString, QString> &m : s.moves) {
        const QString newPlace = field(m, "new_start") + QStringLiteral("–") + field(m, "new_end");
        text += QStringLiteral("  partition %1 (%2): sectors %3–%4 → %5, phase %6: %7.\n")
                    .arg(field(m, "number"), field(m, "kind"), field(m, "old_start"),
                         field(m, "old_end"), newPlace, field(m, "phase"),
                         phaseMeaning(m.value(QStringLiteral("phase")), newPlace,
                                      path + QStringLiteral(".data")));
    }
    if (s.moves.isEmpty())
        text += QStringLiteral("  No partition's state can be read from it.\n");
    text += QStringLiteral("Once the disk is sorted out, delete %1.").arg(path);
    return text;
}

} // namespace

QString realignPhaseName(RealignJournal::Phase phase)
{
    switch (phase) {
    case RealignJournal::Phase::Pending:
        return QStringLiteral("pending");
    case RealignJournal::Phase::Shrunk:
        return QStringLiteral("shrunk");
    case RealignJournal::Phase::Moving:
        return QStringLiteral("moving");
    case RealignJournal::Phase::Moved:
        return QStringLiteral("moved");
    case RealignJournal::Phase::TableUpdated:
        return QStringLiteral("table-updated");
    case RealignJournal::Phase::Done:
        return QStringLiteral("done");
    }
    return QString();
}

QString RealignJournal::defaultPath(const QString &target, const QString &stateDir)
{
    return partwise::move::MoveJournal::defaultPath(target, stateDir) + QStringLiteral(".realign");
}

bool RealignJournal::save(const QString &path, QString *error) const
{
    QJsonArray list;
    for (int i = 0; i < moves.size(); ++i)
        list.append(moveToJson(moves[i], phases.value(i)));
    const QJsonObject journal{{QStringLiteral("target"), target},
                              {QStringLiteral("sector_size"), sectorSize},
                              {QStringLiteral("verify"), verify},
                              {QStringLiteral("backup_folder"), backupFolder},
                              {QStringLiteral("moves"), list}};
    const QByteArray data = fileBytes(
        QJsonObject{{QStringLiteral("format"), kFormat}, {QStringLiteral("journal"), journal}});
    QDir().mkpath(QFileInfo(path).absolutePath());
    const QString temp = path + QStringLiteral(".new");
    QFile f(temp);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size() ||
        !f.flush() || ::fsync(f.handle()) != 0) {
        *error = QStringLiteral("Cannot write the realignment journal %1: %2")
                     .arg(temp, f.errorString());
        return false;
    }
    f.close();
    if (::rename(temp.toLocal8Bit().constData(), path.toLocal8Bit().constData()) != 0 ||
        !syncFolderOf(path)) {
        *error = QStringLiteral("Cannot put the realignment journal in place at %1.").arg(path);
        return false;
    }
    return true;
}

bool RealignJournal::load(const QString &path, RealignJournal *journal, QString *error)
{
    QFile f(path);
    if (!f.exists()) {
        *error = QStringLiteral("There is no interrupted realignment at %1.").arg(path);
        return false;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("Cannot read the realignment journal %1: %2. Nothing was "
                                "changed; run the command again once it is readable.")
                     .arg(path, f.errorString());
        return false;
    }
    const QByteArray raw = f.readAll();
    const QString problem = check(raw, journal);
    if (!problem.isEmpty()) {
        *error = damaged(path, raw, problem);
        return false;
    }
    return true;
}

bool RealignJournal::remove(const QString &path)
{
    return QFile::remove(path) && syncFolderOf(path);
}

int RealignJournal::nextUnfinished() const
{
    for (int i = 0; i < phases.size(); ++i)
        if (phases[i] != Phase::Done)
            return i;
    return -1;
}
