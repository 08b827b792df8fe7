#include "ops/realignjournal.h"

#include "move/MoveJournal.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <fcntl.h>
#include <unistd.h>

namespace {

const RealignJournal::Phase kPhases[] = {
    RealignJournal::Phase::Pending,      RealignJournal::Phase::Shrunk,
    RealignJournal::Phase::Moving,       RealignJournal::Phase::Moved,
    RealignJournal::Phase::TableUpdated, RealignJournal::Phase::Done};

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

QJsonObject moveToJson(const PartitionMove &m, RealignJournal::Phase phase)
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

PartitionMove moveFromJson(const QJsonObject &o)
{
    PartitionMove m;
    m.number = o.value(QStringLiteral("number")).toInt();
    const QString kind = o.value(QStringLiteral("kind")).toString();
    m.kind = kind == QLatin1String("logical") ? PartitionInfo::Kind::Logical
                                              : PartitionInfo::Kind::Primary;
    m.filesystem = o.value(QStringLiteral("filesystem")).toString();
    m.label = o.value(QStringLiteral("label")).toString();
    m.uuid = o.value(QStringLiteral("uuid")).toString();
    m.oldStart = o.value(QStringLiteral("old_start")).toInteger();
    m.oldEnd = o.value(QStringLiteral("old_end")).toInteger();
    m.newStart = o.value(QStringLiteral("new_start")).toInteger();
    m.newEnd = o.value(QStringLiteral("new_end")).toInteger();
    m.shrinkSectors = o.value(QStringLiteral("shrink_sectors")).toInteger();
    m.recreateSwap = o.value(QStringLiteral("recreate_swap")).toBool();
    return m;
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
    const QJsonObject root{{QStringLiteral("target"), target},
                           {QStringLiteral("sector_size"), sectorSize},
                           {QStringLiteral("verify"), verify},
                           {QStringLiteral("backup_folder"), backupFolder},
                           {QStringLiteral("moves"), list}};
    QDir().mkpath(QFileInfo(path).absolutePath());
    const QString temp = path + QStringLiteral(".new");
    QFile f(temp);
    const QByteArray data = QJsonDocument(root).toJson();
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
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("There is no interrupted realignment at %1.").arg(path);
        return false;
    }
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    if (!root.contains(QStringLiteral("moves"))) {
        *error = QStringLiteral("%1 is not a Partwise realignment journal.").arg(path);
        return false;
    }
    journal->target = root.value(QStringLiteral("target")).toString();
    journal->sectorSize = root.value(QStringLiteral("sector_size")).toInteger();
    journal->verify = root.value(QStringLiteral("verify")).toBool(true);
    journal->backupFolder = root.value(QStringLiteral("backup_folder")).toString();
    journal->moves.clear();
    journal->phases.clear();
    for (const QJsonValue &v : root.value(QStringLiteral("moves")).toArray()) {
        const QJsonObject o = v.toObject();
        journal->moves << moveFromJson(o);
        Phase phase = Phase::Pending;
        for (Phase p : kPhases)
            if (realignPhaseName(p) == o.value(QStringLiteral("phase")).toString())
                phase = p;
        journal->phases << phase;
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
