// A copy gives the target's bytes it does not write back before it copies: holes in an image,
// discards (TRIM) on a block device that takes them, none with --no-discard. Judged from outside:
// the image's allocated blocks (st_blocks), the kernel's count of discarded sectors of the loop
// device (/sys/block/loopN/stat, field 14) against the plan's discard line, sfdisk's table, and
// every file of every partition compared with the source (tests/support/partitioncontents). A copy
// killed inside the discard step (a preloaded stub dies at a chosen discard) is finished by
// `resume`.

#include "buildsetting.h"
#include "clirun.h"
#include "filebytes.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
constexpr qint64 kTargetBytes = 320 * kMiB;

// A used disk: every byte written with a pattern past its first MiB (which holds no table, so
// the copy takes it as a blank disk).
bool makeUsedDisk(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(kTargetBytes))
        return false;
    const QByteArray pattern(kMiB, char(0xa5));
    f.seek(kMiB);
    for (qint64 at = kMiB; at < kTargetBytes; at += kMiB)
        if (f.write(pattern) != kMiB)
            return false;
    return f.flush();
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

// The bytes of `image` outside its partitions, as sfdisk reads its table.
qint64 bytesOutsidePartitions(const QString &image)
{
    const SfdiskTable table = SfdiskTable::read(image);
    qint64 inside = 0;
    for (const SfdiskPartition &p : table.partitions)
        if (p.kind != QLatin1String("extended"))
            inside += p.size * table.sectorSize;
    return table.ok ? kTargetBytes - inside : -1;
}

// The bytes the plan's "discard: about N MiB" line names (-1 when it names none).
qint64 plannedDiscardBytes(const QByteArray &out)
{
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("discard: about ([0-9.]+) MiB"))
            .match(QString::fromUtf8(out));
    return m.hasMatch() ? qint64(m.captured(1).toDouble() * kMiB) : -1;
}

} // namespace

class TestCopyDiscard : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_source;

    qint64 m_blankCopyBytes = 0; // allocated by a copy onto a blank (all holes) image

    QString path(const QString &name) const { return m_dir.filePath(name); }

    QStringList copyArgs(const QStringList &extra, const QString &target) const
    {
        return QStringList{QStringLiteral("copy"), QStringLiteral("--yes"),
                           QStringLiteral("--backup-dir"), path(QStringLiteral("backups"))} +
               extra + QStringList{m_source, target};
    }

    void verifySameContents(const QString &copy)
    {
        const QStringList differ = copyDiffers(m_source, copy);
        QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
    }

private slots:
    void initTestCase()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QVERIFY(m_dir.isValid());
        setCliPath(buildSetting("PARTWISE_CLI"));
        m_source = path(QStringLiteral("old-fdisk.img"));
        const CliResult r = runCli({QStringLiteral("practice"), QStringLiteral("--size"),
                                    QStringLiteral("256m"), QStringLiteral("old-fdisk"), m_source});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const QString blank = path(QStringLiteral("blank.img"));
        QVERIFY(makeSparseFile(blank, kTargetBytes));
        const CliResult copied = runCli(copyArgs({}, blank), 300000);
        QVERIFY2(copied.exitCode == 0, qPrintable(copied.describe()));
        m_blankCopyBytes = allocatedBytes(blank);
        QVERIFY(m_blankCopyBytes > 0 && m_blankCopyBytes < kTargetBytes / 4);
    }

    // The image keeps only what the copy wrote: a used disk ends up with no more allocated
    // blocks than a copy onto a blank image has (1 MiB for holes' rounding), not the 320 MiB it
    // had.
    void holesInAnImage()
    {
        const QString target = path(QStringLiteral("holes.img"));
        QVERIFY(makeUsedDisk(target));
        const CliResult plan =
            runCli({QStringLiteral("copy"), QStringLiteral("--dry-run"), m_source, target});
        QVERIFY2(plan.out.contains("discard: about") && plan.out.contains("holes in the image"),
                 plan.out.constData());
        const CliResult r = runCli(copyArgs({}, target), 300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        QVERIFY2(allocatedBytes(target) <= m_blankCopyBytes + kMiB,
                 qPrintable(QStringLiteral("%1 bytes allocated, a copy onto a blank image %2")
                                .arg(allocatedBytes(target))
                                .arg(m_blankCopyBytes)));
        verifySameContents(target);

        const QString kept = path(QStringLiteral("kept.img"));
        QVERIFY(makeUsedDisk(kept));
        const CliResult noDiscard =
            runCli(copyArgs({QStringLiteral("--no-discard")}, kept), 300000);
        QVERIFY2(noDiscard.exitCode == 0, qPrintable(noDiscard.describe()));
        QVERIFY(noDiscard.out.contains("discard: none (--no-discard)"));
        // The old bytes stay where no partition is (less the first and last MiB it clears).
        QVERIFY2(allocatedBytes(kept) >= bytesOutsidePartitions(kept) - 2 * kMiB,
                 qPrintable(QStringLiteral("%1 bytes allocated, %2 outside the partitions")
                                .arg(allocatedBytes(kept))
                                .arg(bytesOutsidePartitions(kept))));
        verifySameContents(kept);
    }

    // A loop device over a file takes discards: the kernel counts what the plan's discard line
    // said, and at least the space outside the new table's partitions (less the first and last
    // MiB the copy writes).
    void trimOnALoopDevice()
    {
        const QString image = path(QStringLiteral("trim.img"));
        QVERIFY(makeUsedDisk(image));
        qint64 discarded = 0, outside = 0, planned = -1;
        {
            LoopDevice loop(image);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            const qint64 before = discardedSectors(loop.path());
            QVERIFY(before >= 0);
            const CliResult r = runCli(copyArgs({}, loop.path()), 300000);
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
            QVERIFY(r.out.contains("(TRIM)"));
            discarded = (discardedSectors(loop.path()) - before) * 512;
            planned = plannedDiscardBytes(r.out);
            outside = bytesOutsidePartitions(loop.path());
        }
        // What the plan's discard line said, less the first and last MiB, which the copy clears
        // by writing; within the line's rounding to a tenth of a MiB.
        QVERIFY2(planned > 0 && qAbs(discarded - (planned - 2 * kMiB)) <= kMiB / 10,
                 qPrintable(QStringLiteral("%1 bytes discarded, the plan said about %2")
                                .arg(discarded)
                                .arg(planned)));
        QVERIFY(outside > 16 * kMiB);
        QVERIFY2(discarded >= outside - 2 * kMiB,
                 qPrintable(QStringLiteral("%1 bytes discarded, %2 outside the partitions")
                                .arg(discarded)
                                .arg(outside)));
        verifySameContents(image);

        LoopDevice again(image);
        QVERIFY(again.ok());
        const qint64 before = discardedSectors(again.path());
        const CliResult r =
            runCli(copyArgs({QStringLiteral("--no-discard")}, again.path()), 300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QCOMPARE(discardedSectors(again.path()), before);
    }

    // Killed at its second discard, the copy has written nothing but holes: the target has no
    // table, and `resume` discards again, copies and finishes.
    void killedWhileDiscarding()
    {
        const QString target = path(QStringLiteral("killed.img"));
        const QString journal = path(QStringLiteral("killed.journal"));
        QVERIFY(makeUsedDisk(target));
        qputenv("LD_PRELOAD", buildSetting("KILL_AT_DISCARD").toLocal8Bit());
        qputenv("PW_KILL_AT_DISCARD", "2");
        const CliResult killed =
            runCli(copyArgs({QStringLiteral("--journal"), journal}, target), 300000);
        qunsetenv("LD_PRELOAD");
        qunsetenv("PW_KILL_AT_DISCARD");
        QVERIFY2(killed.crashed, qPrintable(killed.describe() + QString::fromUtf8(killed.out)));
        QVERIFY(QFile::exists(journal));
        QVERIFY(!killed.out.contains("Cleared the old table"));
        QVERIFY(SfdiskTable::read(target).partitions.isEmpty());

        const CliResult resumed = runCli(
            {QStringLiteral("resume"), QStringLiteral("--journal"), journal, target}, 300000);
        QVERIFY2(resumed.exitCode == 0,
                 qPrintable(resumed.describe() + QString::fromUtf8(resumed.out)));
        QVERIFY(!QFile::exists(journal));
        QVERIFY(allocatedBytes(target) <= m_blankCopyBytes + kMiB);
        verifySameContents(target);
    }
};

QTEST_GUILESS_MAIN(TestCopyDiscard)
#include "tst_copydiscard.moc"
