// Power cuts during an Apply of several operations: an NTFS at the misaligned GPT sector 34
// shrunk and moved onto the grain, a swap partition made, and the NTFS of another image pasted
// into a larger partition (grown, then given a new serial number). Every tool's in-place writes go
// through a redo record (fs/journaledresize.h); the Apply runs in a child that stops dead once the
// k-th record is committed, before a block of it is written. The test then lets none, half or a
// random part of the record's blocks reach the image, one torn at a sector, as a drive's cache
// would, or cuts a second time while `resume` runs. Resume must then finish the job: the table as
// an uncut Apply leaves it (sfdisk -J), and every file of every partition as before (each
// filesystem's own check, SHA-256 of every file: tests/support/partitioncontents); no journal or
// record left.
#include "ops/applyrunner.h"
#include "ops/jobresume.h"
#include "ops/planfile.h"

#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "redocut.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;
using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
const char kCommitLine[] = "changed blocks journaled in ";

QString journalOf(const QString &image)
{
    return image + QStringLiteral(".partwise-move.realign");
}

void detachLoopsOf(const QString &image)
{
    const ToolResult r = runTool(QStringLiteral("losetup"), {QStringLiteral("-j"), image});
    for (const QByteArray &line : r.out.split('\n')) {
        const QByteArray device = line.left(line.indexOf(':'));
        if (device.startsWith("/dev/loop"))
            runTool(QStringLiteral("losetup"), {QStringLiteral("-d"), QString::fromUtf8(device)});
    }
}

// Each partition's number, start, size and type, as sfdisk reads them.
QStringList tableOf(const QString &image)
{
    const SfdiskTable t = SfdiskTable::read(image);
    QStringList rows;
    for (const SfdiskPartition &p : t.partitions)
        rows << QStringLiteral("%1 %2 %3 %4").arg(p.number).arg(p.start).arg(p.size).arg(p.type);
    return t.ok ? rows : QStringList{t.error};
}

} // namespace

class TestApplyPowerCut : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_pristine; // the disk the Apply works on
    QString m_source;   // the image the paste reads
    QList<Operation> m_ops;
    QStringList m_table; // what an uncut Apply leaves
    QMap<int, PartitionContents> m_expected;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    static QMap<int, PartitionContents> contentsOf(const QString &image, QStringList *problems)
    {
        return partitionContents(image, 512, SfdiskTable::read(image), problems);
    }

    bool apply(const QString &image, const std::function<void(const QString &)> &log) const
    {
        ApplyOptions options;
        options.backupRoot = path(QStringLiteral("backups"));
        ApplyCallbacks callbacks;
        callbacks.log = log;
        return applyOperations(image, m_ops, options, callbacks).ok;
    }

    // Empty when resume finished the job, else why not.
    static QString resume(const QString &image, const std::function<void(const QString &)> &log)
    {
        RealignCallbacks callbacks;
        callbacks.log = log;
        const RealignResult r = resumeWriteJob(image, journalOf(image), callbacks);
        return r.ok ? QString() : QStringLiteral("resume failed: ") + r.error;
    }

    // The cut: of the record named in `cutNote`, none (0), the first half (1) or a random part
    // with one block torn (2) reached the image.
    void reach(const QString &image, const QString &cutNote, int reached, quint32 seed);
    void expectFinished(const QString &image, const QString &state);

private slots:
    void initTestCase();
    void cutAtCommit_data();
    void cutAtCommit();
    void secondCutDuringResume();
};

void TestApplyPowerCut::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // the filesystems are made and read through loop devices
    QVERIFY(m_dir.isValid());
    QString error;
    // 80 MiB: NTFS (24 MiB) at sector 34, FAT at 32 MiB, the rest free.
    m_pristine = path(QStringLiteral("pristine.img"));
    QVERIFY2(SfdiskTable::writeImage(m_pristine, 80 * kMiB,
                                     "label: gpt\nfirst-lba: 34\nstart=34, size=49152, type=L\n"
                                     "start=65536, size=16384, type=L\n",
                                     &error),
             qPrintable(error));
    const QString tree = path(QStringLiteral("tree"));
    QVERIFY2(makeFileTree(tree, 40, 3 * kMiB, 47, &error), qPrintable(error));
    {
        LoopRange ntfs(m_pristine, 34 * 512, 24 * kMiB);
        QVERIFY2(ntfs.ok(), qPrintable(ntfs.error()));
        QVERIFY2(makeFilesystem(ntfs.path(), QStringLiteral("ntfs"), QStringLiteral("cut"), 34,
                                &error) &&
                     fillFilesystem(ntfs.path(), QStringLiteral("ntfs"), tree, &error),
                 qPrintable(error));
        LoopRange fat(m_pristine, 32 * kMiB, 8 * kMiB);
        QVERIFY2(fat.ok(), qPrintable(fat.error()));
        QVERIFY2(makeFilesystem(fat.path(), QStringLiteral("vfat"), QStringLiteral("CUTFAT"), 65536,
                                &error) &&
                     fillFilesystem(fat.path(), QStringLiteral("vfat"), tree, &error),
                 qPrintable(error));
    }
    m_source = path(QStringLiteral("source.img"));
    QVERIFY(QFile::copy(m_pristine, m_source));
    QVERIFY2(parsePlan(QStringLiteral(R"({"operations":[
        {"op":"resize","number":1,"start":"1MiB","size":"20MiB"},
        {"op":"create","size":"4MiB","fs":"swap"},
        {"op":"paste","source":"%1","number":1,"start":"48MiB","size":"28MiB"}]})")
                           .arg(m_source)
                           .toUtf8(),
                       &m_ops, &error),
             qPrintable(error));

    // The uncut Apply: what every cut must come back to.
    const QMap<QString, QByteArray> files = treeSha256(tree, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList problems;
    const QString reference = path(QStringLiteral("reference.img"));
    QVERIFY(QFile::copy(m_pristine, reference));
    QVERIFY(apply(reference, {}));
    m_table = tableOf(reference);
    m_expected = contentsOf(reference, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    // Its files are the tree written before: NTFS and FAT kept, the paste holds the NTFS's.
    QCOMPARE(m_table.size(), 4);
    QCOMPARE(m_expected.value(1).files, files);
    QCOMPARE(m_expected.value(2).files, files);
    QCOMPARE(m_expected.value(4).files, files);
    QCOMPARE(m_expected.value(3).fs, QStringLiteral("swap"));
    QFile::remove(reference);
}

void TestApplyPowerCut::reach(const QString &image, const QString &cutNote, int reached,
                              quint32 seed)
{
    const Reach how = reached == 0   ? Reach::None
                      : reached == 1 ? Reach::FirstHalf
                                     : Reach::RandomTorn;
    qint64 blocks = 0;
    QString error;
    QVERIFY2(reachImage(image, cutNote, how, seed, &blocks, &error), qPrintable(error));
    QVERIFY(blocks > 0);
    qInfo("%s: %lld blocks, %s", qPrintable(cutNote), blocks, reachName(how));
}

void TestApplyPowerCut::expectFinished(const QString &image, const QString &state)
{
    QCOMPARE(tableOf(image), m_table);
    QStringList problems;
    const QMap<int, PartitionContents> after = contentsOf(image, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(state + u'\n' + problems.join(u'\n')));
    const QStringList differ = contentsDiffer(m_expected, after);
    QVERIFY2(differ.isEmpty(), qPrintable(state + u'\n' + differ.join(u'\n')));
    // The job is over: neither its journal nor a record of it is left.
    const QFileInfo journal(journalOf(image));
    const QStringList left =
        journal.dir().entryList({journal.fileName() + QStringLiteral("*")},
                                QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(u' ')));
}

void TestApplyPowerCut::cutAtCommit_data()
{
    // 1: the NTFS's shrink, 2: the paste's grow and new serial number (one record)
    QTest::addColumn<int>("record");
    QTest::addColumn<int>("reached");
    QTest::newRow("shrink, the first half") << 1 << 1;
    // The paste's record (2) is cut in secondCutDuringResume.
}

void TestApplyPowerCut::cutAtCommit()
{
    QFETCH(int, record);
    QFETCH(int, reached);
    const QString image = path(QStringLiteral("cut%1.img").arg(record));
    QFile::remove(image);
    QVERIFY(QFile::copy(m_pristine, image));
    const QString note = path(QStringLiteral("cut%1.note").arg(record));
    QCOMPARE(runUntilCommit(kCommitLine, record, note,
                            [&](const std::function<void(const QString &)> &log) {
                                return apply(image, log);
                            }),
             kStoppedAtCommit);
    detachLoopsOf(image);
    reach(image, note, reached, quint32(record * 4711 + reached));
    const QString resumed = resume(image, {});
    QVERIFY2(resumed.isEmpty(), qPrintable(resumed));
    expectFinished(image, QString::fromLatin1(QTest::currentDataTag()));
    QFile::remove(image);
}

// Cut while the shrink's record is written (none of it reached), then again while `resume`
// writes the paste's grow (a random part reached, one torn); a second resume finishes.
void TestApplyPowerCut::secondCutDuringResume()
{
    const QString image = path(QStringLiteral("twice.img"));
    QVERIFY(QFile::copy(m_pristine, image));
    const QString note = path(QStringLiteral("twice.note"));
    QCOMPARE(runUntilCommit(kCommitLine, 1, note,
                            [&](const std::function<void(const QString &)> &log) {
                                return apply(image, log);
                            }),
             kStoppedAtCommit);
    detachLoopsOf(image);
    reach(image, note, 0, 1);
    // Resume applies the shrink's record again (no tool runs), so its first commit is the grow's.
    QCOMPARE(runUntilCommit(kCommitLine, 1, note,
                            [&](const std::function<void(const QString &)> &log) {
                                return resume(image, log).isEmpty();
                            }),
             kStoppedAtCommit);
    detachLoopsOf(image);
    reach(image, note, 2, 2);
    const QString resumed = resume(image, {});
    QVERIFY2(resumed.isEmpty(), qPrintable(resumed));
    expectFinished(image, QStringLiteral("second cut during resume"));
    QFile::remove(image);
}

QTEST_GUILESS_MAIN(TestApplyPowerCut)
#include "tst_applypowercut.moc"
