// An Apply is one journaled job, like a realignment: killed with SIGKILL at random instants
// (while a Resize moves data, while a partition is created and formatted, while a filesystem
// grows), `partwise-cli resume` finishes the operation under way and every operation after it.
// The result is checked with the tools themselves: sfdisk for the table, debugfs for every
// file, dumpe2fs for the filesystem's size, e2fsck for its health, blkid for the new one.

#include "blkidprobe.h"
#include "buildsetting.h"
#include "clirun.h"
#include "device/diskidentity.h"
#include "extimage.h"
#include "filebytes.h"
#include "filechecksum.h"
#include "ops/operationexecution.h"
#include "ops/planfile.h"
#include "ops/writejournal.h"
#include "sfdisktable.h"
#include "table/diskreader.h"
#include "toolrun.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
constexpr qint64 kSector = 512;

// The queue: move partition 1 up by 19 MiB (its data with it), create and format partition 2,
// grow partition 1 in place into the room left, name partition 2.
const char kPlan[] = R"({"operations":[
    {"op":"resize","number":1,"start":"20MiB","size":"100MiB"},
    {"op":"create","start":"140MiB","size":"60MiB","fs":"ext4","label":"fresh"},
    {"op":"resize","number":1,"size":"110MiB"},
    {"op":"name","number":2,"name":"second"}]})";

} // namespace

class TestApplyResume : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void uninterrupted();
    void killedAndResumed_data();
    void killedAndResumed();
    void createAlreadyWritten();

private:
    QString freshImage(const QString &name);
    QStringList runToCompletion(const QString &image, QRandomGenerator &rng);
    QStringList problemsWith(const QString &image);

    QTemporaryDir m_dir;
    QString m_template, m_plan;
    QMap<QString, QByteArray> m_files; // name -> content, in partition 1
    qint64 m_durationMs = 3000;
    quint32 m_seed = 0;
};

void TestApplyResume::initTestCase()
{
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    m_seed = qEnvironmentVariableIsSet("PW_APPLY_SEED")
                 ? quint32(qEnvironmentVariableIntValue("PW_APPLY_SEED"))
                 : QRandomGenerator::global()->generate();
    qInfo("kill instants: seed %u (rerun with PW_APPLY_SEED=%u)", m_seed, m_seed);
    m_plan = m_dir.filePath(QStringLiteral("plan.json"));
    QVERIFY(writeWholeFile(m_plan, kPlan));
    // GPT, partition 1: ext4 of 100 MiB at 1 MiB holding files of varied bytes (40 MiB).
    m_template = m_dir.filePath(QStringLiteral("template.img"));
    QFile f(m_template);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(256 * kMiB));
    f.close();
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), m_template},
                "label: gpt\nstart=2048, size=204800, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n");
    QVERIFY2(table.ok(), qPrintable(table.describe()));
    const ToolResult mkfs = runTool(
        QStringLiteral("mkfs.ext4"),
        {QStringLiteral("-q"), QStringLiteral("-L"), QStringLiteral("data"), QStringLiteral("-E"),
         QStringLiteral("offset=%1").arg(2048 * kSector), m_template, QStringLiteral("100M")});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));
    QRandomGenerator random(7);
    for (int i = 0; i < 10; ++i) {
        QByteArray data((i + 1) * 700 * 1024 + i, Qt::Uninitialized);
        random.fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
        const QString name = QStringLiteral("file%1").arg(i);
        const QString source = m_dir.filePath(name);
        QVERIFY(writeWholeFile(source, data));
        const ToolResult w =
            runTool(QStringLiteral("debugfs"),
                    {QStringLiteral("-w"), QStringLiteral("-R"),
                     QStringLiteral("write %1 %2").arg(source, name), extAt(m_template, 2048)});
        QVERIFY2(w.ok(), qPrintable(w.describe()));
        m_files.insert(name, data);
    }
}

QString TestApplyResume::freshImage(const QString &name)
{
    const QString image = m_dir.filePath(name + QStringLiteral(".img"));
    QFile::remove(image);
    return QFile::copy(m_template, image) ? image : QString();
}

// What a person would check after the queue: the table sfdisk reads, each partition's
// filesystem, size, label and files.
QStringList TestApplyResume::problemsWith(const QString &image)
{
    QStringList problems;
    const SfdiskTable t = SfdiskTable::read(image);
    if (!t.ok)
        return {t.error};
    const SfdiskPartition *one = t.find(1), *two = t.find(2);
    if (t.partitions.size() != 2 || !one || !two)
        return {QStringLiteral("%1 partitions in the table").arg(t.partitions.size())};
    if (one->start != 20 * kMiB / kSector || one->size != 110 * kMiB / kSector)
        problems << QStringLiteral("partition 1 at %1 + %2").arg(one->start).arg(one->size);
    if (two->start != 140 * kMiB / kSector || two->size != 60 * kMiB / kSector)
        problems << QStringLiteral("partition 2 at %1 + %2").arg(two->start).arg(two->size);
    const ToolResult name = runTool(QStringLiteral("sfdisk"),
                                    {QStringLiteral("--part-label"), image, QStringLiteral("2")});
    if (name.out.trimmed() != "second")
        problems << QStringLiteral("partition 2 is named '%1'").arg(QString::fromUtf8(name.out));
    for (const SfdiskPartition *p : {one, two}) {
        const ToolResult fsck =
            runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), extAt(image, p->start)});
        if (!fsck.ok())
            problems << QStringLiteral("partition %1: %2").arg(p->number).arg(fsck.describe());
    }
    if (extBytes(image, one->start) != 110 * kMiB)
        problems << QStringLiteral("partition 1's ext4 is %1 bytes, not grown to 110 MiB")
                        .arg(extBytes(image, one->start));
    for (auto it = m_files.cbegin(); it != m_files.cend(); ++it)
        if (extFile(image, one->start, it.key()) != it.value())
            problems << QStringLiteral("partition 1: %1 differs").arg(it.key());
    const BlkidInfo fresh = blkidProbe(image, two->start * kSector);
    if (fresh.type != QLatin1String("ext4") || fresh.label != QLatin1String("fresh"))
        problems
            << QStringLiteral("partition 2 holds '%1' labelled '%2'").arg(fresh.type, fresh.label);
    return problems;
}

void TestApplyResume::uninterrupted()
{
    const QString image = freshImage(QStringLiteral("whole"));
    QElapsedTimer timer;
    timer.start();
    const CliResult r =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                m_dir.filePath(QStringLiteral("backups")), m_plan, image},
               300000);
    m_durationMs = std::max<qint64>(timer.elapsed(), 500);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.err)));
    qInfo("the queue takes %lld ms", m_durationMs);
    const QStringList problems = problemsWith(image);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// Killed once, then resumed (killed again at times), until the journal is gone.
QStringList TestApplyResume::runToCompletion(const QString &image, QRandomGenerator &rng)
{
    const QString journal = image + QStringLiteral(".partwise-move.realign");
    const QString backups = m_dir.filePath(QStringLiteral("backups"));
    const QString before = QString::fromUtf8(fileSha256(image));
    int code = 0;
    const qint64 delay = rng.bounded(m_durationMs);
    const bool killed = runCliKilledAfter({QStringLiteral("apply"), QStringLiteral("--yes"),
                                           QStringLiteral("--backup-dir"), backups, m_plan, image},
                                          delay, &code);
    qInfo("  apply %s after %lld ms", killed ? "killed" : "finished", delay);
    if (!killed)
        return code == 0 ? QStringList() : QStringList{QStringLiteral("apply exited %1").arg(code)};
    for (int round = 0; QFile::exists(journal); ++round) {
        const QStringList args{QStringLiteral("resume"), image};
        if (round == 0 && rng.bounded(2) == 0) {
            const qint64 again = rng.bounded(m_durationMs);
            const bool k = runCliKilledAfter(args, again, &code);
            qInfo("  resume %s after %lld ms", k ? "killed" : "finished", again);
            continue;
        }
        const CliResult r = runCli(args, 300000);
        if (r.exitCode != 0)
            return {QStringLiteral("resume: %1 %2").arg(r.describe(), QString::fromUtf8(r.err))};
    }
    // No journal: killed before it was written (the disk must be untouched; Apply again) or
    // after the queue was done.
    if (QString::fromUtf8(fileSha256(image)) == before) {
        qInfo("  killed before the first write; applying again");
        const CliResult r = runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                                    QStringLiteral("--backup-dir"), backups, m_plan, image},
                                   300000);
        if (r.exitCode != 0)
            return {QStringLiteral("apply again: %1").arg(r.describe())};
    }
    return {};
}

void TestApplyResume::killedAndResumed_data()
{
    QTest::addColumn<int>("trial");
    for (int i = 0; i < 8; ++i)
        QTest::addRow("trial-%d", i) << i;
}

void TestApplyResume::killedAndResumed()
{
    QFETCH(int, trial);
    QRandomGenerator rng(m_seed + quint32(trial));
    const QString image = freshImage(QStringLiteral("killed-%1").arg(trial));
    QVERIFY(!image.isEmpty());
    QStringList problems = runToCompletion(image, rng);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    problems = problemsWith(image);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QFile::remove(image);
}

// The instant between the table commit of a Create and the journal recording it as done: the
// journal still says "create is under way", the table already holds the partition. Resume
// must see that (the table differs from the one recorded before) and only format it: doing
// the Create again would fail on the occupied space or add a second partition.
void TestApplyResume::createAlreadyWritten()
{
    const QString image = freshImage(QStringLiteral("created"));
    const QString backups = m_dir.filePath(QStringLiteral("backups"));
    QList<Operation> plan;
    QString error;
    QVERIFY2(parsePlan(kPlan, &plan, &error), qPrintable(error));
    const QString first = m_dir.filePath(QStringLiteral("first.json"));
    QVERIFY(writeWholeFile(first, serializePlan(plan.mid(0, 1))));
    QCOMPARE(runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                     QStringLiteral("--backup-dir"), backups, first, image})
                 .exitCode,
             0);
    const DiskReadResult before = readDisk(image);
    QVERIFY2(before.ok, qPrintable(before.error));
    // The Create's table change alone, as its commit would leave it (sfdisk, not Partwise).
    const ToolResult add =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), QStringLiteral("--append"), image},
                "start=286720, size=122880, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n");
    QVERIFY2(add.ok(), qPrintable(add.describe()));
    WriteJournal journal;
    journal.target = image;
    journal.diskIdentity = diskIdentityOf(image); // as the Apply that stopped recorded it
    journal.backupFolder = backups;
    journal.operations = plan;
    journal.nextOperation = 1;
    journal.tableBefore = tableSummary(before.layout);
    QVERIFY2(journal.save(WriteJournal::defaultPath(image), &error), qPrintable(error));

    const CliResult r = runCli({QStringLiteral("resume"), image}, 300000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.err)));
    QVERIFY(!QFile::exists(WriteJournal::defaultPath(image)));
    const QStringList problems = problemsWith(image);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestApplyResume)
#include "tst_applyresume.moc"
