// Disks that boot before `partwise-cli realign --all --yes` boot after it, in QEMU: GRUB for
// BIOS in the MBR gap, GRUB for BIOS with core.img in a BIOS boot partition at GPT sector 34
// (realigned at the 1 MiB and at the 4 KiB grain, the sectors it left zeroed before booting),
// syslinux on FAT32 at 63, extlinux on ext4 at 63 (its recorded start read back with od), and
// GRUB for EFI on an ESP at 34 through OVMF; and the ext4 of the MBR-gap disk moved by `apply`
// (a Resize with a new start), whose plan says nothing breaks; and the BIOS boot partition's
// realignment cut while GRUB's pointers are written, then resumed. Each image boots before the
// realignment too, which proves the fixture right. What boots is read back by `check --json` and by
// od, never by Partwise's own readers. Root only (loop devices, mount), and about 12 boots of 10–20
// s.

#include "ops/realignrunner.h"

#include "bootfixtures.h"
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "redocut.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace boottest;

namespace {

// Four little-endian bytes at `offset` of `path`, as od reads them.
qint64 odUint32(const QString &path, qint64 offset)
{
    const pwtest::ToolResult r = pwtest::runTool(
        QStringLiteral("od"), {QStringLiteral("-An"), QStringLiteral("-tu4"), QStringLiteral("-j"),
                               QString::number(offset), QStringLiteral("-N4"), path});
    return r.ok() ? QString::fromLatin1(r.out).trimmed().toLongLong() : -1;
}

qint64 odUint64(const QString &path, qint64 offset)
{
    const pwtest::ToolResult r = pwtest::runTool(
        QStringLiteral("od"), {QStringLiteral("-An"), QStringLiteral("-tu8"), QStringLiteral("-j"),
                               QString::number(offset), QStringLiteral("-N8"), path});
    return r.ok() ? QString::fromLatin1(r.out).trimmed().toLongLong() : -1;
}

bool zeroSectors(const QString &image, qint64 first, qint64 count)
{
    return pwtest::runTool(QStringLiteral("dd"),
                           {QStringLiteral("if=/dev/zero"), QStringLiteral("of=") + image,
                            QStringLiteral("bs=512"), QStringLiteral("seek=%1").arg(first),
                            QStringLiteral("count=%1").arg(count), QStringLiteral("conv=notrunc")})
        .ok();
}

struct Start
{
    int number;
    qint64 sector;
};

// Partition starts as sfdisk reads them.
QList<Start> sfdiskStarts(const QString &image)
{
    QList<Start> starts;
    const pwtest::ToolResult r =
        pwtest::runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image});
    const QJsonArray parts = QJsonDocument::fromJson(r.out)
                                 .object()
                                 .value(QStringLiteral("partitiontable"))
                                 .toObject()
                                 .value(QStringLiteral("partitions"))
                                 .toArray();
    for (int i = 0; i < parts.size(); ++i)
        starts << Start{i + 1, parts[i].toObject().value(QStringLiteral("start")).toInteger()};
    return starts;
}

qint64 sizeOf(const QString &image, int number)
{
    const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(image);
    const pwtest::SfdiskPartition *p = table.find(number);
    return p ? p->size : -1;
}

qint64 startOf(const QString &image, int number)
{
    for (const Start &s : sfdiskStarts(image))
        if (s.number == number)
            return s.sector;
    return -1;
}

} // namespace

class TestBootQemu : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fixturesBootBefore();
    void grubInTheMbrGap();
    void grubBiosBootPartitionAt1MiB();
    void grubBiosBootPartitionAt4KiB();
    void grubPointersCut_data();
    void grubPointersCut();
    void syslinuxOnFat32();
    void extlinuxOnExt4();
    void grubEfiOnEsp();
    void applyMovesTheExt4BehindGrub();

private:
    QString realignedCopy(const QString &image, const QString &name, const QStringList &extra = {});
    void expectBoot(const QString &image, bool uefi, const QString &what);

    QTemporaryDir m_dir;
    BootFixtures m_fixtures;
    QString m_mbrGap, m_biosBoot, m_syslinux, m_extlinux, m_efi;
};

void TestBootQemu::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    if (!m_fixtures.prepare(m_dir.path())) {
        if (pwtest::runningInCi())
            QFAIL(qPrintable(m_fixtures.error));
        QSKIP(qPrintable(m_fixtures.error));
    }
    QVERIFY2(!(m_mbrGap = m_fixtures.grubMbrGap()).isEmpty(), qPrintable(m_fixtures.error));
    QVERIFY2(!(m_biosBoot = m_fixtures.grubBiosBoot()).isEmpty(), qPrintable(m_fixtures.error));
    QVERIFY2(!(m_syslinux = m_fixtures.syslinuxFat()).isEmpty(), qPrintable(m_fixtures.error));
    QVERIFY2(!(m_extlinux = m_fixtures.extlinuxExt()).isEmpty(), qPrintable(m_fixtures.error));
    QVERIFY2(!(m_efi = m_fixtures.grubEfi()).isEmpty(), qPrintable(m_fixtures.error));
}

void TestBootQemu::expectBoot(const QString &image, bool uefi, const QString &what)
{
    const BootRun run = bootImage(image, uefi);
    qInfo("%s: %s in %.1f s", qPrintable(what), run.booted ? "booted" : "did NOT boot",
          run.seconds);
    QVERIFY2(run.booted,
             qPrintable(what + QStringLiteral(" did not boot; console ends: ") + run.tail));
}

QString TestBootQemu::realignedCopy(const QString &image, const QString &name,
                                    const QStringList &extra)
{
    const QString copy = m_dir.filePath(name);
    QFile::remove(copy);
    if (!QFile::copy(image, copy))
        return {};
    const pwtest::CliResult r = pwtest::runCli(
        QStringList{QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes")} +
        extra + QStringList{copy});
    if (r.exitCode != 0) {
        qWarning("%s", qPrintable(r.describe()));
        return {};
    }
    qInfo("%s", r.out.constData());
    return copy;
}

void TestBootQemu::fixturesBootBefore()
{
    expectBoot(m_mbrGap, false, QStringLiteral("GRUB in the MBR gap, before"));
    expectBoot(m_biosBoot, false, QStringLiteral("GRUB with a BIOS boot partition at 34, before"));
    expectBoot(m_syslinux, false, QStringLiteral("syslinux on FAT32 at 63, before"));
    expectBoot(m_extlinux, false, QStringLiteral("extlinux on ext4 at 63, before"));
    expectBoot(m_efi, true, QStringLiteral("GRUB for EFI on an ESP at 34, before"));

    // What check --json reports for them (the fields README documents).
    const pwtest::CliResult r = pwtest::runCli(
        {QStringLiteral("check"), QStringLiteral("--json"), m_mbrGap, m_biosBoot, m_extlinux});
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    const QJsonObject gap = r.device(m_mbrGap).value(QStringLiteral("boot")).toObject();
    QCOMPARE(gap.value(QStringLiteral("mbr_code")).toString(), QStringLiteral("grub"));
    const QJsonObject gapCore = gap.value(QStringLiteral("grub_core")).toObject();
    QCOMPARE(gapCore.value(QStringLiteral("place")).toString(), QStringLiteral("mbr-gap"));
    // boot.img's pointer as od reads it (offset 0x5C of the MBR).
    QCOMPARE(gapCore.value(QStringLiteral("sector")).toInteger(), odUint64(m_mbrGap, 0x5C));

    const QJsonObject gpt = r.device(m_biosBoot).value(QStringLiteral("boot")).toObject();
    QCOMPARE(gpt.value(QStringLiteral("bios_boot_partition")).toInt(), 1);
    const QJsonObject gptCore = gpt.value(QStringLiteral("grub_core")).toObject();
    QCOMPARE(gptCore.value(QStringLiteral("place")).toString(),
             QStringLiteral("bios-boot-partition"));
    QCOMPARE(gptCore.value(QStringLiteral("sector")).toInteger(), 34);
    QCOMPARE(odUint64(m_biosBoot, 0x5C), 34);

    const QJsonObject ext = pwtest::partitionByNumber(r.device(m_extlinux), 1)
                                .value(QStringLiteral("boot_loader"))
                                .toObject();
    QCOMPARE(ext.value(QStringLiteral("name")).toString(), QStringLiteral("extlinux"));
    QCOMPARE(ext.value(QStringLiteral("recorded_start_sector")).toInteger(), 63);
}

void TestBootQemu::grubInTheMbrGap()
{
    const QString after = realignedCopy(m_mbrGap, QStringLiteral("gap-after.img"));
    QVERIFY(!after.isEmpty());
    QCOMPARE(startOf(after, 1), 2048);
    QVERIFY(zeroSectors(after, 63, 2048 - 63)); // the old start of the filesystem
    expectBoot(after, false, QStringLiteral("GRUB in the MBR gap, after"));
}

void TestBootQemu::grubBiosBootPartitionAt1MiB()
{
    // --all leaves a BIOS boot partition where it is: alignment gains core.img nothing, and the
    // plan says so. Nothing moves, and the exit status says nothing stays misaligned.
    const pwtest::CliResult planned =
        pwtest::runCli({QStringLiteral("realign"), QStringLiteral("--all"),
                        QStringLiteral("--dry-run"), m_biosBoot});
    QVERIFY2(planned.exitCode == 0 && planned.out.contains("partition 1 stays: a BIOS boot") &&
                 planned.out.contains("Nothing to move."),
             qPrintable(planned.describe() + QString::fromUtf8(planned.out)));
    // Asked for by number, it moves with GRUB's pointers (and the ext4 after it shifts).
    const QString after = realignedCopy(m_biosBoot, QStringLiteral("biosboot-1m.img"),
                                        {QStringLiteral("--partition"), QStringLiteral("1")});
    QVERIFY(!after.isEmpty());
    const qint64 start = startOf(after, 1);
    QCOMPARE(start % 2048, 0);
    QCOMPARE(odUint64(after, 0x5C), start); // boot.img follows core.img
    // Only the sectors it left: the old copy of core.img must not be what boots.
    QVERIFY(zeroSectors(after, 34, std::min<qint64>(start, 2048) - 34));
    expectBoot(after, false, QStringLiteral("BIOS boot partition realigned to 1 MiB, after"));
}

void TestBootQemu::grubBiosBootPartitionAt4KiB()
{
    const QString after = realignedCopy(m_biosBoot, QStringLiteral("biosboot-4k.img"),
                                        {QStringLiteral("--partition"), QStringLiteral("1"),
                                         QStringLiteral("--grain"), QStringLiteral("4k")});
    QVERIFY(!after.isEmpty());
    const qint64 start = startOf(after, 1);
    QCOMPARE(start % 8, 0);
    QCOMPARE(odUint64(after, 0x5C), start);
    // Never shrunk: GRUB's core.img may reach its last sector.
    QCOMPARE(sizeOf(after, 1), sizeOf(m_biosBoot, 1));
    // diskboot.img's block list (its first entry at 0x1F4 of core.img's first sector) names the
    // sector after it.
    QCOMPARE(odUint64(after, start * 512 + 0x1F4), start + 1);
    if (start > 34)
        QVERIFY(zeroSectors(after, 34, start - 34));
    expectBoot(after, false, QStringLiteral("BIOS boot partition realigned to 4 KiB, after"));
}

// GRUB's pointers written through their redo record (ops/journaledfixups.h): the realignment
// of the BIOS boot partition stops dead once that record is committed, then only the MBR's
// block reaches the image, garbled to zeros (it holds the GPT header and first entries too).
// Resume writes the record again: boot.img and diskboot.img's block list name the new place
// (od), sgdisk -v finds the table whole, and the disk boots.
void TestBootQemu::grubPointersCut_data()
{
    QTest::addColumn<int>("reach");
    QTest::addColumn<bool>("boot");
    // The first half of its blocks (the MBR's, not core.img's) is left to realign_shrinkcut's
    // like row: the fix-up run again repairs that state too, and a row here costs a realignment.
    QTest::newRow("first block garbled") << int(pwtest::Reach::FirstGarbled) << true;
}

void TestBootQemu::grubPointersCut()
{
    QFETCH(int, reach);
    QFETCH(bool, boot);
    const QString image = m_dir.filePath(QStringLiteral("biosboot-cut-%1.img").arg(reach));
    QFile::remove(image);
    QVERIFY(QFile::copy(m_biosBoot, image));
    const QString note = image + QStringLiteral(".note");
    const int status = pwtest::runUntilCommit(
        "blocks of the boot fix-up journaled in ", 1, note,
        [&](const std::function<void(const QString &)> &log) {
            partwise::RealignRequest request;
            request.partitions = {1};
            const partwise::PreparedRealign prepared =
                partwise::prepareRealignment(image, {}, request);
            partwise::RealignCallbacks callbacks;
            callbacks.log = log;
            return prepared.ok && partwise::runRealignment(image, prepared, {}, callbacks).ok;
        });
    QCOMPARE(status, pwtest::kStoppedAtCommit);
    qint64 blocks = 0;
    QString error;
    QVERIFY2(pwtest::reachImage(image, note, pwtest::Reach(reach), 47, &blocks, &error),
             qPrintable(error));
    QCOMPARE(blocks, 2); // the MBR's block and core.img's first

    const pwtest::CliResult resumed = pwtest::runCli({QStringLiteral("resume"), image});
    QVERIFY2(resumed.exitCode == 0 &&
                 resumed.out.contains("journaled blocks of an interrupted step"),
             qPrintable(resumed.describe() + QString::fromUtf8(resumed.out)));
    QVERIFY(!QFile::exists(image + QStringLiteral(".partwise-move.realign")));
    const qint64 start = startOf(image, 1);
    QCOMPARE(start % 2048, 0);
    QCOMPARE(odUint64(image, 0x5C), start);
    QCOMPARE(odUint64(image, start * 512 + 0x1F4), start + 1);
    const pwtest::ToolResult verified =
        pwtest::runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), image});
    QVERIFY2(verified.ok() && verified.out.contains("No problems found"),
             qPrintable(QString::fromUtf8(verified.out + verified.err)));
    if (boot) {
        QVERIFY(zeroSectors(image, 34, std::min<qint64>(start, 2048) - 34));
        expectBoot(image, false, QStringLiteral("BIOS boot partition realigned, cut, resumed"));
    }
    QFile::remove(image);
    QFile::remove(note);
}

void TestBootQemu::syslinuxOnFat32()
{
    const QString after = realignedCopy(m_syslinux, QStringLiteral("syslinux-after.img"));
    QVERIFY(!after.isEmpty());
    QCOMPARE(startOf(after, 1), 2048);
    QCOMPARE(odUint32(after, 2048 * 512 + 0x1C), 2048); // FAT's hidden sectors
    QVERIFY(zeroSectors(after, 63, 2048 - 63));
    expectBoot(after, false, QStringLiteral("syslinux on FAT32, after"));
}

void TestBootQemu::extlinuxOnExt4()
{
    const QString after = realignedCopy(m_extlinux, QStringLiteral("extlinux-after.img"));
    QVERIFY(!after.isEmpty());
    QCOMPARE(startOf(after, 1), 2048);
    QCOMPARE(odUint32(after, 2048 * 512 + 0x1C), 2048); // the start extlinux records
    QVERIFY(zeroSectors(after, 63, 2048 - 63));
    expectBoot(after, false, QStringLiteral("extlinux on ext4, after"));
}

void TestBootQemu::grubEfiOnEsp()
{
    const QString after = realignedCopy(m_efi, QStringLiteral("efi-after.img"));
    QVERIFY(!after.isEmpty());
    QCOMPARE(startOf(after, 1), 2048);
    QVERIFY(zeroSectors(after, 34, 2048 - 34));
    expectBoot(after, true, QStringLiteral("GRUB for EFI on the ESP, after"));
}

// Resize/Move shares the realignment's knowledge of what boots: the ext4 behind GRUB's MBR gap
// moved from 63 to 1 MiB by a plan file, its old sectors zeroed, still boots.
void TestBootQemu::applyMovesTheExt4BehindGrub()
{
    const QString copy = m_dir.filePath(QStringLiteral("gap-apply.img"));
    QFile::remove(copy);
    QVERIFY(QFile::copy(m_mbrGap, copy));
    const QString plan = m_dir.filePath(QStringLiteral("move-ext4.json"));
    {
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"operations\":[{\"op\":\"resize\",\"number\":1,"
                               "\"start\":1048576,\"size\":%1}]}")
                    .arg(sizeOf(m_mbrGap, 1) * 512)
                    .toUtf8());
    }
    const pwtest::CliResult r =
        pwtest::runCli({QStringLiteral("apply"), QStringLiteral("--yes"), plan, copy});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(!r.out.contains("boot BREAKS"), r.out.constData());
    QCOMPARE(startOf(copy, 1), 2048);
    QCOMPARE(odUint64(copy, 0x5C), odUint64(m_mbrGap, 0x5C)); // boot.img: core.img unmoved
    QVERIFY(zeroSectors(copy, 63, 2048 - 63));
    expectBoot(copy, false, QStringLiteral("GRUB in the MBR gap, ext4 moved by apply, after"));
}

QTEST_GUILESS_MAIN(TestBootQemu)
#include "tst_bootqemu.moc"
