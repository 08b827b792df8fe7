// The write journal against its own corruption, as a realignment and as an Apply leave it. Each
// is killed while it moves a partition; then its journal is damaged field by field (changed, of the
// wrong type, deleted, unknown names and impossible numbers, with the checksum left as it was and
// recomputed) and byte by byte, and each time resume (the command itself every eighth trial, its
// code in this process otherwise) must exit non-zero, name the table backup, and leave the image
// untouched (its mtime per trial, its SHA-256 over the whole run). Finally the intact journal
// must resume through `partwise-cli`, which shows the trials could have written.

#include "buildsetting.h"
#include "cli/realigncommand.h"
#include "clirun.h"
#include "filebytes.h"
#include "filechecksum.h"
#include "move/checksum.h"
#include "ops/writejournal.h"
#include "reducedrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <sys/stat.h>

using namespace partwise;

using namespace pwtest;

namespace {

constexpr qint64 kSector = 512;

qint64 mtimeNs(const QString &path)
{
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

// The file a format-2 journal would be with `root`'s content, its checksum recomputed: what a
// damage that happens to keep the checksum right looks like.
QByteArray resigned(QJsonObject root)
{
    root.remove(QStringLiteral("checksum"));
    const QByteArray compact = QJsonDocument(root).toJson(QJsonDocument::Compact);
    root.insert(QStringLiteral("checksum"),
                QStringLiteral("%1").arg(
                    partwise::move::checksum64(compact.constData(), std::size_t(compact.size())),
                    16, 16, QLatin1Char('0')));
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// How the journal was read before format 2 (root = the content object): a file with "moves"
// was taken, unknown phases became pending and numbers were taken as they were. Kept here to
// show what the checksum and the checks now refuse.
QString legacyRead(const QJsonObject &root)
{
    if (!root.contains(QStringLiteral("moves")))
        return {};
    QStringList fields{root.value(QStringLiteral("target")).toString(),
                       QString::number(root.value(QStringLiteral("sector_size")).toInteger()),
                       root.value(QStringLiteral("backup_folder")).toString()};
    for (const QJsonValue &v : root.value(QStringLiteral("moves")).toArray()) {
        const QJsonObject o = v.toObject();
        for (const char *key : {"old_start", "old_end", "new_start", "new_end", "shrink_sectors"})
            fields << QString::number(o.value(QLatin1String(key)).toInteger());
        fields << QString::number(o.value(QStringLiteral("number")).toInt())
               << o.value(QStringLiteral("phase")).toString(QStringLiteral("pending"));
    }
    return fields.join(QLatin1Char('|'));
}

struct Variant
{
    QString name;
    QJsonValue value; // Undefined: the key is deleted
    bool invalid;     // refused even with the checksum recomputed
};

// The ways a value can be damaged, and whether the result is invalid on its own.
QList<Variant> variantsOf(const QString &key, const QJsonValue &v)
{
    // An operation's optional fields (the plan file's) may be absent: deleting one only
    // changes the value, which the checksum, not the checks, is there to catch. So may a
    // realignment's "discard" (absent: none, as in journals written before it).
    const bool optional =
        QStringList{QStringLiteral("start"), QStringLiteral("fs"), QStringLiteral("label"),
                    QStringLiteral("name"), QStringLiteral("flags"), QStringLiteral("discard")}
            .contains(key);
    QList<Variant> list{{QStringLiteral("deleted"), QJsonValue(QJsonValue::Undefined), !optional}};
    if (v.isDouble()) {
        list << Variant{QStringLiteral("+1"), v.toDouble() + 1, key == QLatin1String("format")}
             << Variant{QStringLiteral("as text"), QString::number(v.toInteger()), true}
             << Variant{QStringLiteral("negative"), -1 - v.toDouble(), true}
             << Variant{QStringLiteral("fraction"), v.toDouble() + 0.5, true};
        if (key == QLatin1String("sector_size"))
            list << Variant{QStringLiteral("513"), 513, true};
        if (key == QLatin1String("number"))
            list << Variant{QStringLiteral("0"), 0, true};
        if (key == QLatin1String("shrink_sectors"))
            list << Variant{QStringLiteral("larger than the difference"), 1 << 30, true};
        if (key.endsWith(QLatin1String("_start")))
            list << Variant{QStringLiteral("past the end"), 1e12, true};
    } else if (v.isString()) {
        // Any text is a valid name, label, UUID or folder; resume takes the target it is given.
        // So is a flag's, a partition's or a filesystem's name in an Apply's operation.
        const bool free = key == QLatin1String("filesystem") || key == QLatin1String("label") ||
                          key == QLatin1String("uuid") || key == QLatin1String("target") ||
                          key == QLatin1String("backup_folder") || key == QLatin1String("flag") ||
                          key == QLatin1String("name") || key == QLatin1String("fs");
        list << Variant{QStringLiteral("changed"), v.toString() + QStringLiteral("x"), !free}
             << Variant{QStringLiteral("as number"), 7, true};
        if (key == QLatin1String("phase"))
            list << Variant{QStringLiteral("other phase"), QStringLiteral("done"), false}
                 << Variant{QStringLiteral("unknown phase"), QStringLiteral("paused"), true};
        if (key == QLatin1String("kind"))
            list << Variant{QStringLiteral("other kind"), QStringLiteral("logical"), false}
                 << Variant{QStringLiteral("free"), QStringLiteral("free"), true};
        if (key == QLatin1String("target") || key == QLatin1String("backup_folder"))
            list << Variant{QStringLiteral("empty"), QString(), true};
    } else if (v.isBool()) {
        list << Variant{QStringLiteral("negated"), !v.toBool(), false}
             << Variant{QStringLiteral("as text"), QStringLiteral("true"), true};
    } else if (v.isArray()) {
        list << Variant{QStringLiteral("emptied"), QJsonArray(), true}
             << Variant{QStringLiteral("as object"), QJsonObject(), true};
    } else if (v.isObject()) {
        list << Variant{QStringLiteral("as list"), QJsonArray(), true};
    }
    return list;
}

} // namespace

// The trials, on the journal a subclass's initTestCase() leaves in m_pristine.
class JournalIntegrityTest : public QObject
{
    Q_OBJECT

protected:
    QTemporaryDir m_dir;
    QString m_image, m_journal, m_backup;
    QByteArray m_pristine, m_dataJournal, m_imageSha;
    qint64 m_imageMtime = 0, m_dataJournalMtime = 0;
    QStringList m_failures;
    int m_trials = 0;

    // `partwise-cli resume` of the image from the journal. Every eighth trial starts the command
    // itself; the others call what it runs (cli/realigncommand.h) in this process, with its
    // output caught: a process start costs more than a refusal, hundreds of times a run.
    CliResult resume()
    {
        if (m_trials % 8 == 1)
            return runCli(
                {QStringLiteral("resume"), QStringLiteral("--journal"), m_journal, m_image}, 30000);
        QString outText, errText;
        QTextStream out(&outText), err(&errText);
        CliResult r;
        r.started = true;
        r.exitCode = runResumeCommand(m_image, m_journal, out, err);
        out.flush();
        err.flush();
        r.out = outText.toUtf8();
        r.err = errText.toUtf8();
        return r;
    }

    // Resume from `journal`; everything must be refused with the disk untouched.
    // The message must name the backup folder while the file still does (or, `namesBackup`,
    // while it can be found from what the file still holds).
    void expectRefused(const QByteArray &journal, const QString &what, bool namesBackup = false,
                       const QString &mustName = QString())
    {
        ++m_trials;
        namesBackup = namesBackup || journal.contains(m_backup.toUtf8());
        if (!writeWholeFile(m_journal, journal)) {
            m_failures << what + QStringLiteral(": cannot write the journal");
            return;
        }
        const CliResult r = resume();
        const QString err = QString::fromUtf8(r.err);
        if (r.exitCode == 0 || r.crashed)
            m_failures << what + QStringLiteral(": resume exited %1").arg(r.exitCode);
        if (namesBackup && !err.contains(m_backup))
            m_failures << what + QStringLiteral(": the message does not name the backup: ") + err;
        if (!mustName.isEmpty() && !err.contains(mustName))
            m_failures << what + QStringLiteral(": the message does not name %1: ").arg(mustName) +
                              err;
        if (mtimeNs(m_image) != m_imageMtime)
            m_failures << what + QStringLiteral(": the image was written to");
        if (mtimeNs(WriteJournal().dataJournalPath(m_journal)) != m_dataJournalMtime)
            m_failures << what + QStringLiteral(": the data journal was written to");
    }

    void finishTrials()
    {
        qInfo("%d damaged journals tried", m_trials);
        for (const QString &failure : m_failures.mid(0, 20))
            qWarning().noquote() << failure.left(400);
        QVERIFY2(
            m_failures.isEmpty(),
            qPrintable(
                QStringLiteral("%1 of %2 trials failed").arg(m_failures.size()).arg(m_trials)));
        QCOMPARE(fileSha256(m_image), m_imageSha);
    }

    // Every object of the journal with the path to reach it: the root, "journal", each move.
    QList<QStringList> objectPaths() const
    {
        const QJsonObject root = QJsonDocument::fromJson(m_pristine).object();
        QList<QStringList> paths{{}, {QStringLiteral("journal")}};
        const int moves = root.value(QStringLiteral("journal"))
                              .toObject()
                              .value(QStringLiteral("moves"))
                              .toArray()
                              .size();
        for (int i = 0; i < moves; ++i)
            paths << QStringList{QStringLiteral("journal"), QStringLiteral("moves"),
                                 QString::number(i)};
        const int operations = root.value(QStringLiteral("journal"))
                                   .toObject()
                                   .value(QStringLiteral("operations"))
                                   .toArray()
                                   .size();
        for (int i = 0; i < operations; ++i)
            paths << QStringList{QStringLiteral("journal"), QStringLiteral("operations"),
                                 QString::number(i)};
        return paths;
    }

    static QJsonValue at(const QJsonValue &from, const QStringList &path)
    {
        QJsonValue v = from;
        for (const QString &step : path)
            v = v.isArray() ? v.toArray().at(step.toInt()) : v.toObject().value(step);
        return v;
    }

    // `root` with the object at `path` replaced through `edit`.
    static QJsonValue edited(const QJsonValue &root, const QStringList &path,
                             const std::function<void(QJsonObject &)> &edit)
    {
        if (path.isEmpty()) {
            QJsonObject o = root.toObject();
            edit(o);
            return o;
        }
        const QStringList rest = path.mid(1);
        if (root.isArray()) {
            QJsonArray a = root.toArray();
            a[path.first().toInt()] = edited(a.at(path.first().toInt()), rest, edit);
            return a;
        }
        QJsonObject o = root.toObject();
        o[path.first()] = edited(o.value(path.first()), rest, edit);
        return o;
    }

    // `root` with `key` of the object at `path` damaged as `variant` says.
    static QJsonObject withDamage(const QJsonObject &root, const QStringList &path,
                                  const QString &key, const Variant &variant)
    {
        return edited(root, path,
                      [&](QJsonObject &o) {
                          if (variant.value.isUndefined())
                              o.remove(key);
                          else
                              o.insert(key, variant.value);
                      })
            .toObject();
    }

    // Two partitions off the 4 KiB grid with data in them; 48 MiB to move in all, so the
    // first move is still under way when the kill comes.
    void makeImage(const QString &name)
    {
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
        QVERIFY(m_dir.isValid());
        m_image = m_dir.filePath(name + QStringLiteral(".img"));
        QFile f(m_image);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(131072 * kSector));
        QRandomGenerator random(42);
        for (qint64 start : {63LL, 65601LL}) {
            QByteArray data(40000 * kSector, Qt::Uninitialized);
            random.fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
            QVERIFY(f.seek(start * kSector) && f.write(data) == data.size());
        }
        f.close();
        QProcess sfdisk;
        sfdisk.start(QStringLiteral("sfdisk"), {QStringLiteral("-q"), m_image});
        sfdisk.write("label: dos\nstart=63, size=40000, type=83\nstart=65601, size=40000, "
                     "type=83\n");
        sfdisk.closeWriteChannel();
        QVERIFY(sfdisk.waitForFinished() && sfdisk.exitCode() == 0);
    }

    // Runs partwise-cli with `args` and kills it once the journal says a partition is moving
    // and its data journal exists; keeps what the kill left.
    void catchMoving(const QStringList &args, int moves)
    {
        QProcess job;
        job.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        job.setStandardOutputFile(QProcess::nullDevice());
        job.start(cliPath(), args);
        QVERIFY(job.waitForStarted());
        QElapsedTimer timer;
        timer.start();
        // The event is the journal saying "moving" beside its data journal; the bound is only
        // there so a broken build fails instead of hanging, and is generous because the
        // sanitizer build reaches the move several times slower (backup, libparted, blkid).
        while (!(readWholeFile(m_journal).contains("\"moving\"") &&
                 QFile::exists(WriteJournal().dataJournalPath(m_journal))) &&
               timer.elapsed() < 180000 && job.state() == QProcess::Running)
            QThread::usleep(500);
        job.kill();
        job.waitForFinished();
        m_pristine = readWholeFile(m_journal);
        m_dataJournal = readWholeFile(WriteJournal().dataJournalPath(m_journal));
        QVERIFY2(m_pristine.contains("\"moving\"") && !m_dataJournal.isEmpty(),
                 "the job was not caught moving");

        WriteJournal journal;
        QString error;
        QVERIFY2(WriteJournal::load(m_journal, &journal, &error), qPrintable(error));
        QCOMPARE(journal.moves.size(), moves);
        m_backup = journal.backupFolder;
        QVERIFY(QFile::exists(m_backup + QStringLiteral("/backup.json")));
        m_imageSha = fileSha256(m_image);
        m_imageMtime = mtimeNs(m_image);
        m_dataJournalMtime = mtimeNs(WriteJournal().dataJournalPath(m_journal));
        qInfo("journal of %lld bytes, data journal of %lld bytes", qint64(m_pristine.size()),
              qint64(m_dataJournal.size()));
    }

private slots:
    void init() { m_failures.clear(), m_trials = 0; }

    void everyFieldDamaged()
    {
        const QJsonObject root = QJsonDocument::fromJson(m_pristine).object();
        // The sanitizer stage (reducedrun.h) keeps every re-signed damage, each of which a
        // check of its own must refuse, and one in four of those that only break the checksum
        // (the byte trials break it too), from a random start.
        const int plainEvery = reducedRun() ? 4 : 1;
        int plain = int(QRandomGenerator::global()->bounded(plainEvery));
        if (plainEvery > 1)
            qInfo("checksum-only damages: every %d from %d", plainEvery, plain);
        for (const QStringList &path : objectPaths()) {
            const QJsonObject object = at(root, path).toObject();
            const QString where = path.isEmpty() ? QStringLiteral("root") : path.join('.');
            QStringList keys = object.keys();
            for (const QString &key : keys) {
                for (const Variant &v : variantsOf(key, object.value(key))) {
                    if (v.value == object.value(key))
                        continue; // emptying an empty list changes nothing
                    const QJsonObject changed = withDamage(root, path, key, v);
                    const QString what = QStringLiteral("%1.%2 %3").arg(where, key, v.name);
                    // As damage leaves it: the checksum no longer matches.
                    if (plain++ % plainEvery == 0)
                        expectRefused(QJsonDocument(changed).toJson(), what);
                    // As if the damage had kept the checksum right: the checks refuse it.
                    if (v.invalid && key != QLatin1String("checksum"))
                        expectRefused(resigned(changed), what + QStringLiteral(" (re-signed)"),
                                      false, v.value.isUndefined() ? key : QString());
                }
            }
            const QJsonObject extra = edited(root, path, [](QJsonObject &o) {
                                          o.insert(QStringLiteral("extra"), 1);
                                      }).toObject();
            expectRefused(resigned(extra), where + QStringLiteral(" with an unknown field"), false,
                          QStringLiteral("extra"));
        }
        // A later move cannot be under way while an earlier one is.
        if (objectPaths().contains(QStringList{QStringLiteral("journal"), QStringLiteral("moves"),
                                               QStringLiteral("1")})) {
            const QJsonObject second =
                edited(root,
                       {QStringLiteral("journal"), QStringLiteral("moves"), QStringLiteral("1")},
                       [](QJsonObject &o) {
                           o.insert(QStringLiteral("phase"), QStringLiteral("moved"));
                       })
                    .toObject();
            expectRefused(resigned(second), QStringLiteral("second move ahead of the first"));
        }
        // An older journal without a checksum, and a future format.
        expectRefused(QJsonDocument(root.value(QStringLiteral("journal")).toObject()).toJson(),
                      QStringLiteral("format 1"), false, QStringLiteral("older version"));
        // A future format, and the one before (format 2 had no Apply queue): refused by number.
        for (const int format : {WriteJournal::kFormat + 1, WriteJournal::kFormat - 1}) {
            QJsonObject other = root;
            other.insert(QStringLiteral("format"), format);
            const QString name = QStringLiteral("format %1").arg(format);
            expectRefused(resigned(other), name, false, name);
        }
        finishTrials();
    }

    void everyByteRangeDamaged()
    {
        // Every third byte, with a different bit pattern in turn; then truncations. The
        // sanitizer stage (reducedrun.h) flips every 21st byte from a random start.
        static const unsigned char masks[] = {0x01, 0x20, 0x80, 0xFF};
        const qsizetype folderAt = m_pristine.indexOf(m_backup.toUtf8());
        const qsizetype lastPart = folderAt + m_backup.lastIndexOf(QLatin1Char('/'));
        QVERIFY(folderAt > 0);
        const qsizetype stride = reducedRun() ? 21 : 3;
        const qsizetype first = stride > 3 ? QRandomGenerator::global()->bounded(int(stride)) : 0;
        if (stride > 3)
            qInfo("bytes flipped: every %lld from %lld", qint64(stride), qint64(first));
        for (qsizetype offset = first; offset < m_pristine.size(); offset += stride) {
            QByteArray damaged = m_pristine;
            damaged[offset] = char(damaged[offset] ^ masks[(offset / 3) % 4]);
            // A flip in the folders above the backup leaves nothing to find it by.
            const bool inLastPart = offset > lastPart && offset < folderAt + m_backup.size();
            expectRefused(damaged, QStringLiteral("byte %1 flipped").arg(offset), inLastPart);
        }
        for (qsizetype length : {qsizetype(0), qsizetype(1), m_pristine.size() / 2,
                                 m_pristine.size() - 2, m_pristine.size() - 1})
            expectRefused(m_pristine.left(length), QStringLiteral("cut to %1 bytes").arg(length));
        expectRefused(m_pristine + "\n", QStringLiteral("a byte appended"));
        finishTrials();
    }

    // The intact journal resumes and finishes: the refusals above were not for want of a way
    // to write.
    void intactJournalResumes()
    {
        QVERIFY(writeWholeFile(m_journal, m_pristine));
        QVERIFY(writeWholeFile(WriteJournal().dataJournalPath(m_journal), m_dataJournal) ||
                m_dataJournal.isEmpty());
        if (m_dataJournal.isEmpty())
            QFile::remove(WriteJournal().dataJournalPath(m_journal));
        const CliResult r = runCli(
            {QStringLiteral("resume"), QStringLiteral("--journal"), m_journal, m_image}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QVERIFY(!QFile::exists(m_journal));
        QVERIFY(fileSha256(m_image) != m_imageSha);
    }
};

// A realignment of both partitions, killed while it moves the first.
class RealignJournalIntegrity : public JournalIntegrityTest
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        makeImage(QStringLiteral("legacy"));
        m_journal = m_dir.filePath(QStringLiteral("legacy.journal"));
        catchMoving({QStringLiteral("realign"), QStringLiteral("--yes"),
                     QStringLiteral("--journal"), m_journal, QStringLiteral("--backup-dir"),
                     m_dir.filePath(QStringLiteral("backups")), m_image},
                    2);
    }

    // What the safety measure is for: the reader before format 2 took most of these
    // damaged journals as they were, with other numbers or phases than the ones written.
    void theLenientReaderTookThem()
    {
        const QJsonObject root = QJsonDocument::fromJson(m_pristine).object();
        const QJsonObject content = root.value(QStringLiteral("journal")).toObject();
        const QString original = legacyRead(content);
        int accepted = 0, total = 0;
        for (const QStringList &path : objectPaths().mid(1)) {
            const QStringList inContent = path.mid(1);
            const QJsonObject object = at(content, inContent).toObject();
            for (const QString &key : object.keys()) {
                for (const Variant &v : variantsOf(key, object.value(key))) {
                    if (v.value == object.value(key))
                        continue; // emptying an empty list changes nothing
                    const QJsonObject changed = withDamage(content, inContent, key, v);
                    const QString read = legacyRead(changed);
                    ++total;
                    if (!read.isEmpty() && read != original)
                        ++accepted;
                }
            }
        }
        qInfo("the lenient reader took %d of %d damaged journals with wrong values", accepted,
              total);
        QVERIFY(accepted > total / 2);
    }
};

// An Apply whose first operation moves partition 1 to 1 MiB, killed during that move, with two
// operations after it.
class ApplyJournalIntegrity : public JournalIntegrityTest
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        makeImage(QStringLiteral("apply"));
        m_journal = WriteJournal::defaultPath(m_image);
        const QString plan = m_dir.filePath(QStringLiteral("plan.json"));
        QVERIFY(writeWholeFile(plan, R"({"operations":[
            {"op":"resize","number":1,"start":"1MiB","size":20480000},
            {"op":"flag","number":2,"flag":"boot","state":true},
            {"op":"resize","number":2,"size":20480000}]})"));
        catchMoving({QStringLiteral("apply"), QStringLiteral("--yes"),
                     QStringLiteral("--backup-dir"), m_dir.filePath(QStringLiteral("backups")),
                     plan, m_image},
                    1);
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    RealignJournalIntegrity realign;
    ApplyJournalIntegrity apply;
    return QTest::qExec(&realign, argc, argv) | QTest::qExec(&apply, argc, argv);
}

#include "tst_journalintegrity.moc"
