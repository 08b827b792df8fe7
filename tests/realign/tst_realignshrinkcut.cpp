// The case end to end: a full GPT disk (gpt-shrink: ext4 at sector 34 and NTFS right
// behind it must each give up a few sectors before they can move onto the grain) realigned, and
// the power cut while one shrink's blocks are being written in place. The realignment runs in a
// child process that stops dead once the shrink's redo record is committed (before a block of it
// is written); the test then lets none, half or a random part of the record's blocks reach the
// image, one of them torn at a sector, as a drive's cache would. `partwise-cli resume` must then
// finish the job, judged by the template shelf's independent checks: sfdisk's table on the grain,
// blkid, e2fsck -fn, ntfsfix -n, fsck.fat -n and every file's SHA-256.
#include "move/redorecord.h"
#include "ops/realignrunner.h"

#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "realignfixtures.h"
#include "reducedrun.h"
#include "sfdisktable.h"
#include "templateshelf.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

using namespace partwise;
using namespace pwtest;

namespace {

constexpr int kStoppedAtCommit = 42;

// The realignment in a child that ends, without cleaning up, right after the log line for which
// `stopAt` says so (a redo record committed): what the disk and the journal folder hold at that
// instant survive.
int realignUntil(const QString &image, const std::function<bool(const QString &)> &stopAt)
{
    const pid_t child = ::fork();
    if (child == 0) {
        RealignCallbacks callbacks;
        callbacks.log = [&](const QString &line) {
            if (stopAt(line))
                ::_exit(kStoppedAtCommit);
        };
        const PreparedRealign prepared = prepareRealignment(image, {}, {});
        if (!prepared.ok)
            ::_exit(1);
        ::_exit(runRealignment(image, prepared, {}, callbacks).ok ? 0 : 2);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Until the `record`-th filesystem tool's record is committed.
int realignUntilCommit(const QString &image, int record)
{
    int seen = 0;
    return realignUntil(image, [&](const QString &line) {
        return line.contains(QLatin1String("changed blocks journaled")) && ++seen == record;
    });
}

quint64 le64(const QByteArray &bytes, int at)
{
    quint64 v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | quint8(bytes[at + i]);
    return v;
}

// The cut: part of the record `redo`'s blocks reached `image` (0 none, 1 the first half, 2 a
// random part with one block torn at a 512-byte sector, 3 only the first block, garbled to zeros:
// a 512e drive's read-modify-write of a 4 KiB physical sector cut short). Returns the record's
// region offset, from its header (redorecord.h: offset at byte 16, length at 24, tag at 40); -1
// when unreadable.
qint64 letReach(const QString &image, const QString &redo, int reached, quint32 seed)
{
    QByteArray header;
    {
        QFile f(redo);
        if (!f.open(QIODevice::ReadOnly))
            return -1;
        header = f.read(64);
    }
    const move::RedoRegion region{qint64(le64(header, 16)), qint64(le64(header, 24)),
                                  le64(header, 40)};
    QFile disk(image);
    if (!disk.open(QIODevice::ReadWrite))
        return -1;
    QRandomGenerator random(seed);
    const qint64 blocks = move::checkRedoRecord(redo, region).blocks;
    if (blocks <= 0)
        return -1;
    const qint64 torn = reached == 2 ? qint64(random.bounded(quint32(blocks))) : -1;
    qint64 index = 0;
    QString error;
    const bool applied = move::applyRedoRecord(
        redo, region,
        [&](qint64 at, const char *data, qint64 length) {
            const qint64 i = index++;
            const bool all = reached == 1 ? i < blocks / 2 : reached == 2 && random.bounded(2) == 1;
            const qint64 n = std::min(i == torn ? 512 * (1 + random.bounded(7)) : length, length);
            if (reached == 3)
                return i > 0 || (disk.seek(at) && disk.write(QByteArray(length, '\0')) == length);
            return !(all || i == torn) || (disk.seek(at) && disk.write(data, n) == n);
        },
        &error);
    return applied ? region.offset : -1;
}

} // namespace

class TestRealignShrinkCut : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<TemplateShelf> m_shelf;

private slots:
    void initTestCase()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        setCliPath(buildSetting("PARTWISE_CLI"));
        QVERIFY(m_dir.isValid());
        QString error;
        const QString source = m_dir.filePath(QStringLiteral("source"));
        QVERIFY2(makeFileTree(source, 200, 8 << 20, 47, &error), qPrintable(error));
        const QMap<QString, QByteArray> expected = treeSha256(source, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_shelf = std::make_unique<TemplateShelf>(m_dir.path(), source, expected);
        QVERIFY2(m_shelf->build(gptShrink(), &error), qPrintable(error));
    }

    void cutWhileShrinkIsWritten_data()
    {
        // The plan shrinks the NTFS (partition 2) first, then the ext4 (partition 1).
        QTest::addColumn<int>("record");   // which shrink's record: 1 or 2
        QTest::addColumn<qint64>("start"); // the start sector of the partition it shrinks
        QTest::addColumn<int>("reached");  // 0 none, 1 the first half, 2 a random part, one torn
        QTest::newRow("ntfs, none reached") << 1 << qint64(131206) << 0;
        QTest::newRow("ntfs, random part, one torn") << 1 << qint64(131206) << 2;
        if (!reducedRun())
            QTest::newRow("ext4, first half") << 2 << qint64(34) << 1;
        QTest::newRow("ext4, random part, one torn") << 2 << qint64(34) << 2;
    }

    void cutWhileShrinkIsWritten()
    {
        QFETCH(int, record);
        QFETCH(qint64, start);
        QFETCH(int, reached);
        const QString name = QString::fromLatin1(QTest::currentDataTag())
                                 .replace(QLatin1Char(' '), QLatin1Char('-'))
                                 .remove(QLatin1Char(','));
        const QString image = m_shelf->freshCopy(QStringLiteral("gpt-shrink"), name);
        QVERIFY(!image.isEmpty());
        QCOMPARE(realignUntilCommit(image, record), kStoppedAtCommit);
        detachLoopsOf(image);
        const QString journal = journalOf(image);
        const QString redo = journal + QStringLiteral(".redo");
        QVERIFY(QFile::exists(journal));
        QVERIFY(QFile::exists(redo));

        QCOMPARE(letReach(image, redo, reached, quint32(qHash(name))), start * kSector);

        const CliResult resumed = runCli({QStringLiteral("resume"), image});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.describe()));
        QVERIFY(!QFile::exists(journal));
        QVERIFY(!QFile::exists(redo));
        const QStringList problems =
            m_shelf->verify((*m_shelf)[QStringLiteral("gpt-shrink")], image);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QFile::remove(image);
    }

    void cutWhileBootSectorIsFixed_data()
    {
        QTest::addColumn<int>("reached"); // as letReach()
        if (!reducedRun())
            QTest::newRow("first half") << 1;
        QTest::newRow("first block garbled") << 3;
    }

    // The moved NTFS's recorded start (hidden sectors, in its boot sector and the backup in its
    // partition's last sector) is rewritten through a record of its own: cut once that record
    // is committed, resume writes it again whole, and both boot sectors name the start sfdisk
    // reads, ntfsfix and the shelf's other checks finding nothing wrong.
    void cutWhileBootSectorIsFixed()
    {
        QFETCH(int, reached);
        const QString name =
            QStringLiteral("fixup-") + QString::fromLatin1(QTest::currentDataTag())
                                           .replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString image = m_shelf->freshCopy(QStringLiteral("gpt-shrink"), name);
        QVERIFY(!image.isEmpty());
        int blocks = 0;
        QCOMPARE(realignUntil(image,
                              [&](const QString &line) {
                                  const qsizetype at =
                                      line.indexOf(QLatin1String(" blocks of the boot fix-up"));
                                  blocks = at > 0 ? line.left(at).trimmed().toInt() : 0;
                                  return blocks > 0;
                              }),
                 kStoppedAtCommit);
        detachLoopsOf(image);
        const QString journal = journalOf(image);
        const QString redo = journal + QStringLiteral(".redo.fixup.redo");
        QVERIFY(QFile::exists(journal));
        QVERIFY(QFile::exists(redo));
        // Partition 2's start before the cut, as sfdisk reads the table then.
        const SfdiskPartition *moved = nullptr;
        const SfdiskTable cutTable = SfdiskTable::read(image);
        QVERIFY2(cutTable.ok && (moved = cutTable.find(2)), qPrintable(cutTable.error));
        QVERIFY(moved->start % 2048 == 0);
        QCOMPARE(letReach(image, redo, reached, quint32(qHash(name))), moved->start * kSector);

        const CliResult resumed = runCli({QStringLiteral("resume"), image});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.describe()));
        QVERIFY2(resumed.out.contains("journaled blocks of an interrupted step"),
                 qPrintable(resumed.describe()));
        QVERIFY(!QFile::exists(journal));
        QVERIFY(!QFile::exists(redo));
        const QStringList problems =
            m_shelf->verify((*m_shelf)[QStringLiteral("gpt-shrink")], image);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        const SfdiskTable table = SfdiskTable::read(image);
        const SfdiskPartition *ntfs = table.find(2);
        QVERIFY(ntfs);
        QFile disk(image);
        QVERIFY(disk.open(QIODevice::ReadOnly));
        for (const qint64 sector : {ntfs->start, ntfs->end()}) {
            QVERIFY(disk.seek(sector * kSector));
            const QByteArray boot = disk.read(512);
            QCOMPARE(boot.mid(3, 8), QByteArray("NTFS    "));
            QCOMPARE(qFromLittleEndian<quint32>(boot.constData() + 0x1C), quint32(ntfs->start));
        }
        disk.close();
        QFile::remove(image);
    }

    // A committed record damaged afterwards (a drive that lied about a flush) cannot be applied:
    // resume refuses, writing nothing, and keeps the job's journal and the record, since the
    // disk may hold half of the shrink. Nothing may say "nothing was changed" and forget the job.
    void damagedRecordKeepsTheJob()
    {
        const QString image =
            m_shelf->freshCopy(QStringLiteral("gpt-shrink"), QStringLiteral("damaged-record"));
        QVERIFY(!image.isEmpty());
        QCOMPARE(realignUntilCommit(image, 1), kStoppedAtCommit);
        detachLoopsOf(image);
        const QString journal = journalOf(image);
        const QString redo = journal + QStringLiteral(".redo");
        QFile record(redo);
        QVERIFY(record.open(QIODevice::ReadWrite));
        QByteArray bytes = record.readAll();
        QVERIFY(bytes.size() > 64 + 24 + 4096);
        bytes[64 + 24 + 10] = char(bytes[64 + 24 + 10] ^ 0x40); // in the first block's data
        QVERIFY(record.seek(0) && record.write(bytes) == bytes.size());
        record.close();
        const QByteArray before = fileSha256(image);

        const CliResult resumed = runCli({QStringLiteral("resume"), image});
        QCOMPARE(resumed.exitCode, 1);
        QVERIFY2(resumed.err.contains("damaged"), qPrintable(resumed.describe()));
        QVERIFY2(!resumed.err.contains("Nothing was changed"), qPrintable(resumed.describe()));
        QCOMPARE(fileSha256(image), before);
        QVERIFY(QFile::exists(journal));
        QVERIFY(QFile::exists(redo));
        QFile::remove(journal);
        QFile::remove(redo);
        QFile::remove(image);
    }
};

QTEST_GUILESS_MAIN(TestRealignShrinkCut)
#include "tst_realignshrinkcut.moc"
