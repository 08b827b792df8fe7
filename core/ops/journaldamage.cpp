#include "ops/journaldamage.h"

#include "ops/tablebackup.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QRegularExpression>

namespace partwise {

namespace {

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
    QStringList operations; // an Apply's queue: each operation's "op"
    QString nextOperation;
};

Scraped scrape(const QByteArray &raw, const QStringList &moveKeys)
{
    Scraped s;
    static const QRegularExpression pair(QStringLiteral(
        R"re("((?:[^"\\\n]|\\.)+)"\s*:\s*("(?:[^"\\\n]|\\.)*"|-?[0-9]+|true|false))re"));
    QMap<QString, QString> current;
    bool pastMoves = false;
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
        // Keys are written sorted: the operations (whose "number" is no move's) follow the moves.
        if (key == QLatin1String("op"))
            s.operations << value;
        else if (key == QLatin1String("next_operation"))
            s.nextOperation = value;
        pastMoves = pastMoves || key == QLatin1String("next_operation") ||
                    key == QLatin1String("op") || key == QLatin1String("operations");
        if (key == QLatin1String("target") && s.target.isEmpty())
            s.target = value;
        else if (key == QLatin1String("backup_folder") && s.backupFolder.isEmpty())
            s.backupFolder = value;
        if (pastMoves || !moveKeys.contains(key))
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
// The nearest folder that exists at or above `path`, at most two levels up: a damaged byte
// may have turned a '.' of the folder's name into a '/'.
QString existingFolderNear(const QString &path)
{
    QString folder = QFileInfo(path).absolutePath();
    for (int up = 0; up < 3 && !folder.isEmpty() && folder != QLatin1String("/"); ++up) {
        if (QFileInfo(folder).isDir())
            return folder;
        folder = QFileInfo(folder).absolutePath();
    }
    return {};
}

// The newest backups in the folders the damaged journal still points near (the folder it
// names, any other path in it) and in the default backup folder.
QString backupCandidates(const QString &named, const QStringList &paths)
{
    QStringList roots;
    for (const QString &path : QStringList{named} + paths)
        if (const QString folder = existingFolderNear(path);
            !path.isEmpty() && !folder.isEmpty() && folder != QLatin1String("/tmp"))
            roots << folder;
    roots << defaultBackupRoot();
    roots.removeDuplicates();
    QStringList found;
    for (const QString &root : std::as_const(roots)) {
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

} // namespace

QString describeDamagedJournal(const QString &path, const QByteArray &raw, const QString &problem,
                               const QStringList &moveKeys)
{
    const Scraped s = scrape(raw, moveKeys);
    const QString target = s.target.isEmpty() ? QStringLiteral("DISK") : s.target;
    QString text = QStringLiteral("The journal %1 cannot be trusted: %2. Resuming from it "
                                  "could write data to the wrong place, so Partwise will not.\n"
                                  "What is left to do by hand (read from the damaged journal, so "
                                  "unverified):\n")
                       .arg(path, problem);
    if (isBackup(s.backupFolder))
        text += QStringLiteral("  The partition table from before it started is backed up "
                               "in %1; `partwise-cli restore %1 %2` puts it back, which is right "
                               "only for partitions whose data is still at the old place.\n")
                    .arg(s.backupFolder, target);
    else
        text += QStringLiteral("  The table backup folder it names (%1) cannot be found. %2 "
                               "`partwise-cli restore FOLDER %3` puts the table from before the "
                               "realignment back, which is right only for partitions whose "
                               "data is still at the old place.\n")
                    .arg(s.backupFolder.isEmpty() ? QStringLiteral("none") : s.backupFolder,
                         backupCandidates(s.backupFolder, s.paths), target);
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
    if (!s.operations.isEmpty())
        text += QStringLiteral("  It was applying a queue of %1 operations (%2); the number of "
                               "those done reads %3. Check the disk against that queue before "
                               "applying what is left again.\n")
                    .arg(s.operations.size())
                    .arg(s.operations.join(QStringLiteral(", ")),
                         s.nextOperation.isEmpty() ? QStringLiteral("?") : s.nextOperation);
    text += QStringLiteral("Once the disk is sorted out, delete %1.").arg(path);
    return text;
}

} // namespace partwise
