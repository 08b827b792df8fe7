// A realignment gives back what its moves leave behind, once they are done: holes in an image,
// discards (TRIM) on a loop device, none with --no-discard. Judged from outside: the image's
// data ranges (lseek SEEK_DATA/SEEK_HOLE) over the old place of the partition sfdisk saw moved,
// the kernel's count of discarded sectors of the loop device (/sys/block/loopN/stat, field 14),
// and every file of every partition compared with the disk before (tests/support/
// partitioncontents). A realignment killed at its discard (a preloaded stub dies at the first)
// is finished by `resume`, which discards then.

#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr qint64 kBlock = 4096;

// The bytes of [from, to) of `path` that hold data rather than a hole.
qint64 dataBytesIn(const QString &path, qint64 from, qint64 to)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    qint64 bytes = 0;
    for (off_t at = from; at < to;) {
        const off_t data = ::lseek(fd, at, SEEK_DATA);
        if (data < 0 || data >= to)
            break;
        const off_t hole = std::min<off_t>(::lseek(fd, data, SEEK_HOLE), to);
        bytes += hole - data;
        at = hole;
    }
    ::close(fd);
    return bytes;
}

// The kernel's count of the sectors discarded on a block device since it was made.
qint64 discardedSectors(const QString &device)
{
    QFile stat(QStringLiteral("/sys/block/%1/stat").arg(device.section(QLatin1Char('/'), -1)));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = stat.readAll().simplified().split(' ');
    return fields.size() > 13 ? fields.at(13).toLongLong() : -1;
}

} // namespace

class TestRealignDiscard : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_before; // gpt-34: partition 1 at sector 34, moved up to the grain
    qint64 m_oldStart = 0;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    QString disk(const QString &name) const
    {
        const QString copy = path(name);
        QFile::remove(copy);
        return QFile::copy(m_before, copy) ? copy : QString();
    }

    QStringList realignArgs(const QStringList &extra, const QString &target) const
    {
        return QStringList{QStringLiteral("realign"),      QStringLiteral("--yes"),
                           QStringLiteral("--journal"),    path(QStringLiteral("journal")),
                           QStringLiteral("--backup-dir"), path(QStringLiteral("backups"))} +
               extra + QStringList{target};
    }

    // Partition 1's old place that no partition holds now, in bytes, as sfdisk reads `target`.
    std::pair<qint64, qint64> leftBehind(const QString &target)
    {
        const SfdiskTable after = SfdiskTable::read(target);
        const SfdiskPartition *p = after.find(1);
        return {m_oldStart * 512, p ? p->start * 512 : -1};
    }

    void verifySameFiles(const QString &target)
    {
        const QStringList differ = copyDiffers(m_before, target);
        QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
    }

private slots:
    void initTestCase()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QVERIFY(m_dir.isValid());
        setCliPath(buildSetting("PARTWISE_CLI"));
        m_before = path(QStringLiteral("gpt-34.img"));
        const CliResult r = runCli({QStringLiteral("practice"), QStringLiteral("--size"),
                                    QStringLiteral("64m"), QStringLiteral("gpt-34"), m_before});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const SfdiskTable table = SfdiskTable::read(m_before);
        QVERIFY(table.ok && table.find(1));
        m_oldStart = table.find(1)->start;
    }

    // The old place of partition 1 keeps at most a partial block of data (a hole's edge),
    // against the stale copy --no-discard keeps there.
    void holesInAnImage()
    {
        const QString image = disk(QStringLiteral("holes.img"));
        const CliResult plan =
            runCli({QStringLiteral("realign"), QStringLiteral("--dry-run"),
                    QStringLiteral("--journal"), path(QStringLiteral("journal")), image});
        QVERIFY2(plan.out.contains("discard: the ") && plan.out.contains("holes in the image"),
                 plan.out.constData());
        const CliResult r = runCli(realignArgs({}, image), 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        const auto [from, to] = leftBehind(image);
        QVERIFY2(to - from > 512 * 1024, "partition 1 moved by less than expected");
        QVERIFY2(dataBytesIn(image, from, to) < kBlock,
                 qPrintable(QStringLiteral("%1 bytes of data left in %2–%3")
                                .arg(dataBytesIn(image, from, to))
                                .arg(from)
                                .arg(to)));
        QVERIFY(r.out.contains("the moves left behind (holes in the image)"));
        verifySameFiles(image);

        const QString kept = disk(QStringLiteral("kept.img"));
        const CliResult noDiscard =
            runCli(realignArgs({QStringLiteral("--no-discard")}, kept), 120000);
        QVERIFY2(noDiscard.exitCode == 0, qPrintable(noDiscard.describe()));
        QVERIFY(noDiscard.out.contains("discard: none (--no-discard)"));
        QVERIFY(!noDiscard.out.contains("left behind"));
        QVERIFY2(
            dataBytesIn(kept, from, to) > 16 * kBlock,
            qPrintable(QStringLiteral("%1 bytes of data kept").arg(dataBytesIn(kept, from, to))));
        verifySameFiles(kept);
    }

    // On a loop device, killed at the first discard: every move is done and journaled, nothing
    // is discarded yet; `resume` discards the old place (the kernel counts at least what the
    // device's discard granularity leaves of it) and no more than the disk's unpartitioned
    // space.
    void killedAtTheDiscardOfALoopDevice()
    {
        const QString image = disk(QStringLiteral("loop.img"));
        const QString journal = path(QStringLiteral("journal"));
        qint64 discarded = 0, expected = 0, outside = 0;
        {
            LoopDevice loop(image);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            QVERIFY(loop.addPartitions());
            const qint64 granularity =
                std::max<qint64>(loop.queueValue("discard_granularity"), 512);
            const qint64 before = discardedSectors(loop.path());
            QVERIFY(before >= 0);
            qputenv("LD_PRELOAD", buildSetting("KILL_AT_DISCARD").toLocal8Bit());
            qputenv("PW_KILL_AT_DISCARD", "1");
            const CliResult killed = runCli(realignArgs({}, loop.path()), 120000);
            qunsetenv("LD_PRELOAD");
            qunsetenv("PW_KILL_AT_DISCARD");
            QVERIFY2(killed.crashed, qPrintable(killed.describe() + QString::fromUtf8(killed.out)));
            QVERIFY(QFile::exists(journal));
            QCOMPARE(discardedSectors(loop.path()), before);
            QVERIFY(SfdiskTable::read(loop.path()).find(1)->start > m_oldStart);

            const CliResult resumed = runCli(
                {QStringLiteral("resume"), QStringLiteral("--journal"), journal, loop.path()},
                120000);
            QVERIFY2(resumed.exitCode == 0,
                     qPrintable(resumed.describe() + QString::fromUtf8(resumed.out)));
            QVERIFY(resumed.out.contains("the moves left behind (TRIM)"));
            QVERIFY(!QFile::exists(journal));
            discarded = (discardedSectors(loop.path()) - before) * 512;
            const auto [from, to] = leftBehind(loop.path());
            expected = to / granularity * granularity -
                       (from + granularity - 1) / granularity * granularity;
            const SfdiskTable after = SfdiskTable::read(loop.path());
            outside = QFileInfo(image).size();
            for (const SfdiskPartition &p : after.partitions)
                outside -= p.size * 512;
        }
        QVERIFY(expected > 0);
        QVERIFY2(discarded >= expected && discarded <= outside,
                 qPrintable(QStringLiteral("%1 bytes discarded, %2 left behind, %3 outside the "
                                           "partitions")
                                .arg(discarded)
                                .arg(expected)
                                .arg(outside)));
        verifySameFiles(image);
    }
};

QTEST_GUILESS_MAIN(TestRealignDiscard)
#include "tst_realigndiscard.moc"
