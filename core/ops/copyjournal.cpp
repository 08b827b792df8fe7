#include "ops/copyjournal.h"

#include "base/atomicfile.h"
#include "base/nofollowfile.h"
#include "device/diskidentity.h"
#include "move/checksum.h"
#include "move/movejournal.h"
#include "move/redorecord.h"
#include "ops/copyplanjson.h"
#include "report/jsonreader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace partwise {

namespace {

constexpr qint64 kMaxJournalBytes = qint64(1) << 24;

constexpr qint64 kMaxChunks = qint64(1) << 40;
const QList<CopyJournal::Step> kSteps{CopyJournal::Step::Planned, CopyJournal::Step::Cleared,
                                      CopyJournal::Step::Copying, CopyJournal::Step::Fixing,
                                      CopyJournal::Step::Table};

bool stepFromName(const QString &name, CopyJournal::Step *step)
{
    for (const CopyJournal::Step s : kSteps)
        if (copyStepName(s) == name) {
            *step = s;
            return true;
        }
    return false;
}

QString checksumText(const QJsonObject &content)
{
    const QByteArray compact = QJsonDocument(content).toJson(QJsonDocument::Compact);
    return QStringLiteral("%1").arg(
        move::checksum64(compact.constData(), std::size_t(compact.size())), 16, 16,
        QLatin1Char('0'));
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
    QJsonArray chunks, verifiedList, fixedList, signatures;
    for (int i = 0; i < plan.partitions.size(); ++i) {
        chunks.append(chunksDone.value(i));
        signatures.append(chunkSignatures.value(i));
        verifiedList.append(verified.value(i));
        fixedList.append(fixed.value(i));
    }
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
                              {QStringLiteral("plan"), copyPlanToJson(plan)}};
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
    QString problem;
    JsonReader r(root, QStringLiteral("the journal's"), &problem);
    const QString stored = r.string("checksum");
    root.remove(QStringLiteral("checksum"));
    if (problem.isEmpty() && stored != checksumText(root))
        problem = QStringLiteral("its checksum does not match its content");
    if (problem.isEmpty() && r.integer("format", 0, 1000) != kFormat)
        problem = QStringLiteral("it is of another format");
    const QJsonObject j = r.object("journal");
    JsonReader jr(j, QStringLiteral("the journal's"), &problem);
    CopyJournal c;
    c.source = jr.string("source");
    c.target = jr.string("target");
    c.targetIdentity = jr.string("target_identity");
    c.verify = jr.boolean("verify");
    c.backupFolder = jr.string("backup_folder");
    c.scratchFolder = jr.string("scratch_folder");
    if (!stepFromName(jr.string("step"), &c.step) && problem.isEmpty())
        problem = QStringLiteral("the field \"step\" has an unknown value");
    const QJsonObject planJson = jr.object("plan");
    QString planProblem;
    if (problem.isEmpty() && !copyPlanFromJson(planJson, &c.plan, &planProblem))
        problem = planProblem;
    c.plan.source = c.source;
    c.plan.target = c.target;
    const qsizetype n = c.plan.partitions.size();
    const QJsonArray chunks = jr.array("chunks_done", n);
    const QJsonArray signatures = jr.array("chunk_signatures", n);
    const QJsonArray verified = jr.array("verified", n);
    const QJsonArray fixed = jr.array("fixed", n);
    if (problem.isEmpty() &&
        (chunks.size() != n || signatures.size() != n || verified.size() != n || fixed.size() != n))
        problem = QStringLiteral("its lists do not match its partitions");
    for (qsizetype i = 0; problem.isEmpty() && i < n; ++i) {
        const double d = chunks[i].toDouble(-1);
        if (d < 0 || d > double(kMaxChunks) || d != qint64(d) || !verified[i].isBool() ||
            !fixed[i].isBool() || !signatures[i].isString())
            problem = QStringLiteral("its progress lists are damaged");
        c.chunksDone << qint64(d);
        c.chunkSignatures << signatures[i].toString();
        c.verified << verified[i].toBool();
        c.fixed << fixed[i].toBool();
    }
    if (!problem.isEmpty()) {
        *error = QStringLiteral("The copy journal %1 cannot be used: %2. Nothing was written; "
                                "start the copy again.")
                     .arg(path, problem);
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
