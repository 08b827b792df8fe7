// A copy judges booting as a realignment does. GRUB for BIOS that loads core.img by absolute
// sectors (grub-install --force: core.img a file in the ext4 of a GPT disk without a BIOS boot
// partition, and GRUB in the boot sector of an MBR partition at 63) stops working when the
// partition gets a new start: `realign --dry-run` says "boot BREAKS", `copy --dry-run` says the
// same break, `copy --yes` refuses with nothing written (sha256 of both images unchanged) and
// copies only with --accept-boot-change; a Paste of the partition with GRUB in its boot sector
// (`apply` of a plan) the same. Where GRUB's pointer lies is read back with od and sfdisk, never
// with Partwise's readers: on the copy it still names the source's sector, which holds other
// bytes there. Every file compared. Root (loop devices, mount, grub-install); ~10 s, no QEMU.

#include "bootfixtures.h"
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace boottest;

namespace {

qint64 odUint64(const QString &path, qint64 offset)
{
    const pwtest::ToolResult r = pwtest::runTool(
        QStringLiteral("od"), {QStringLiteral("-An"), QStringLiteral("-tu8"), QStringLiteral("-j"),
                               QString::number(offset), QStringLiteral("-N8"), path});
    return r.ok() ? QString::fromLatin1(r.out).trimmed().toLongLong() : -1;
}

// The verdicts after "<prefix>partition 1: ", without the repair (which names the disk).
QStringList breaks(const QByteArray &out, const QString &prefix)
{
    QStringList found;
    for (const QString &line : QString::fromUtf8(out).split(QLatin1Char('\n'))) {
        const int at = line.indexOf(prefix);
        if (at >= 0)
            found << line.mid(at + prefix.size()).section(QStringLiteral(" To repair it"), 0, 0);
    }
    return found;
}

bool partitionHolds(const pwtest::SfdiskTable &table, qint64 sector)
{
    for (const pwtest::SfdiskPartition &p : table.partitions)
        if (sector >= p.start && sector <= p.end())
            return true;
    return false;
}

QByteArray sectorOf(const QString &path, qint64 sector)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) && f.seek(sector * 512) ? f.read(512) : QByteArray();
}

} // namespace

class TestCopyBootJudge : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
        QVERIFY(m_dir.isValid());
        if (!m_fixtures.prepare(m_dir.path())) {
            if (pwtest::runningInCi())
                QFAIL(qPrintable(m_fixtures.error));
            QSKIP(qPrintable(m_fixtures.error));
        }
    }

    // boot.img in the MBR points into partition 1, at core.img's first sector.
    void coreImgByBlockListsInThePartition()
    {
        const QString source = m_fixtures.grubBlocklists();
        QVERIFY2(!source.isEmpty(), qPrintable(m_fixtures.error));
        judgedAsTheRealignmentJudges(source, 0x5C, QStringLiteral("blocklists-copy.img"));
    }

    // mbr.bin loads the active partition's boot sector: GRUB's boot.img, pointing at core.img.
    void grubInThePartitionBootSector()
    {
        const QString source = m_fixtures.grubPartitionBootSector();
        QVERIFY2(!source.isEmpty(), qPrintable(m_fixtures.error));
        judgedAsTheRealignmentJudges(source, 63 * 512 + 0x5C, QStringLiteral("pbr-copy.img"));
    }

    // A paste carries the boot sector: the copy's GRUB loads the source's sectors.
    void pasteOfGrubInThePartitionBootSector()
    {
        const QString source = m_fixtures.grubPartitionBootSector();
        QVERIFY2(!source.isEmpty(), qPrintable(m_fixtures.error));
        const QString target = m_dir.filePath(QStringLiteral("paste-target.img"));
        QFile f(target);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(f.resize(QFileInfo(source).size()));
        f.close();
        QVERIFY(pwtest::runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), target},
                                "label: dos\n")
                    .ok());
        const QString plan = m_dir.filePath(QStringLiteral("paste.json"));
        QFile p(plan);
        QVERIFY(p.open(QIODevice::WriteOnly | QIODevice::Truncate));
        p.write(QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\","
                               "\"number\":1}]}")
                    .arg(source)
                    .toUtf8());
        p.close();
        const pwtest::CliResult realign =
            pwtest::runCli({QStringLiteral("realign"), QStringLiteral("--all"),
                            QStringLiteral("--dry-run"), source});
        const QStringList realignBreaks =
            breaks(realign.out, QStringLiteral("boot BREAKS: partition 1: "));
        QVERIFY2(!realignBreaks.isEmpty(), realign.out.constData());

        const QStringList args{QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                               m_dir.filePath(QStringLiteral("backups")), plan, target};
        const QByteArray sourceSha = pwtest::fileSha256(source);
        const QByteArray targetSha = pwtest::fileSha256(target);
        const pwtest::CliResult refused =
            pwtest::runCli(QStringList{QStringLiteral("apply")} + args);
        QVERIFY2(refused.exitCode == 1 && refused.err.contains("--accept-boot-change"),
                 qPrintable(refused.describe() + QString::fromUtf8(refused.out)));
        QCOMPARE(breaks(refused.out, QStringLiteral("boot BREAKS: partition 1: ")), realignBreaks);
        QCOMPARE(pwtest::fileSha256(target), targetSha);
        QCOMPARE(pwtest::fileSha256(source), sourceSha);

        const pwtest::CliResult accepted = pwtest::runCli(
            QStringList{QStringLiteral("apply"), QStringLiteral("--accept-boot-change")} + args,
            300000);
        QVERIFY2(accepted.exitCode == 0,
                 qPrintable(accepted.describe() + QString::fromUtf8(accepted.err)));
        QCOMPARE(pwtest::fileSha256(source), sourceSha);
        const pwtest::SfdiskTable before = pwtest::SfdiskTable::read(source);
        const pwtest::SfdiskTable after = pwtest::SfdiskTable::read(target);
        QVERIFY2(after.ok && after.partitions.size() == 1, qPrintable(after.error));
        const qint64 shift = after.partitions.first().start - before.partitions.first().start;
        const qint64 core = odUint64(source, 63 * 512 + 0x5C);
        QCOMPARE(odUint64(target, (63 + shift) * 512 + 0x5C), core);
        QVERIFY(sectorOf(target, core) != sectorOf(source, core));
        expectSameFiles(source, before, target, after);
    }

private:
    void expectSameFiles(const QString &a, const pwtest::SfdiskTable &aTable, const QString &b,
                         const pwtest::SfdiskTable &bTable)
    {
        QStringList problems;
        const auto was = pwtest::partitionContents(a, 512, aTable, &problems);
        const auto is = pwtest::partitionContents(b, 512, bTable, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(!was.value(1).files.isEmpty());
        const QStringList differ = pwtest::contentsDiffer(was, is);
        QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
    }

    // `pointerOffset`: where GRUB's boot.img keeps core.img's sector on the source.
    void judgedAsTheRealignmentJudges(const QString &source, qint64 pointerOffset,
                                      const QString &name)
    {
        const pwtest::SfdiskTable before = pwtest::SfdiskTable::read(source);
        QVERIFY2(before.ok && before.partitions.size() == 1, qPrintable(before.error));
        const qint64 core = odUint64(source, pointerOffset);
        QVERIFY2(partitionHolds(before, core), qPrintable(QString::number(core)));

        const pwtest::CliResult realign =
            pwtest::runCli({QStringLiteral("realign"), QStringLiteral("--all"),
                            QStringLiteral("--dry-run"), source});
        const QStringList realignBreaks =
            breaks(realign.out, QStringLiteral("boot BREAKS: partition 1: "));
        QVERIFY2(!realignBreaks.isEmpty(), realign.out.constData());

        const QString copy = m_dir.filePath(name);
        QFile f(copy);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(f.resize(QFileInfo(source).size()));
        f.close();
        const QStringList args{QStringLiteral("--backup-dir"),
                               m_dir.filePath(QStringLiteral("backups")), source, copy};
        const pwtest::CliResult planned =
            pwtest::runCli(QStringList{QStringLiteral("copy"), QStringLiteral("--dry-run")} + args);
        qInfo("%s", planned.out.constData());
        QCOMPARE(breaks(planned.out, QStringLiteral("boot breaks: partition 1: ")), realignBreaks);
        QVERIFY2(planned.out.contains("grub-install"), planned.out.constData());

        const QByteArray sourceSha = pwtest::fileSha256(source);
        const QByteArray copySha = pwtest::fileSha256(copy);
        const pwtest::CliResult refused =
            pwtest::runCli(QStringList{QStringLiteral("copy"), QStringLiteral("--yes")} + args);
        QVERIFY2(refused.exitCode == 1 && refused.err.contains("--accept-boot-change"),
                 qPrintable(refused.describe() + QString::fromUtf8(refused.err)));
        QCOMPARE(pwtest::fileSha256(copy), copySha);
        QCOMPARE(pwtest::fileSha256(source), sourceSha);

        const pwtest::CliResult accepted =
            pwtest::runCli(QStringList{QStringLiteral("copy"), QStringLiteral("--yes"),
                                       QStringLiteral("--accept-boot-change")} +
                               args,
                           300000);
        QVERIFY2(accepted.exitCode == 0,
                 qPrintable(accepted.describe() + QString::fromUtf8(accepted.err)));
        QCOMPARE(pwtest::fileSha256(source), sourceSha);
        const pwtest::SfdiskTable after = pwtest::SfdiskTable::read(copy);
        QVERIFY2(after.ok && after.partitions.size() == 1, qPrintable(after.error));
        QCOMPARE(after.partitions.first().start % 2048, 0);
        // The break is real: GRUB on the copy still names the source's sector, where the copy
        // holds something else; core.img's first sector is `shift` sectors on.
        const qint64 shift = after.partitions.first().start - before.partitions.first().start;
        QCOMPARE(odUint64(copy, pointerOffset < 512 ? pointerOffset : pointerOffset + shift * 512),
                 core);
        QCOMPARE(sectorOf(copy, core + shift), sectorOf(source, core));
        QVERIFY(sectorOf(copy, core) != sectorOf(source, core));
        expectSameFiles(source, before, copy, after);
    }

    QTemporaryDir m_dir;
    BootFixtures m_fixtures;
};

QTEST_GUILESS_MAIN(TestCopyBootJudge)
#include "tst_copybootjudge.moc"
