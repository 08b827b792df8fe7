// A disk that boots, copied by `partwise-cli copy` onto a larger disk, boots from the copy in
// QEMU: GRUB for BIOS with its core.img in the MBR gap behind a partition at sector 63, and GRUB
// with a BIOS boot partition at sector 34 of a GPT disk. The copy's partitions start on 1 MiB,
// and the plan says nothing breaks (the moved BIOS boot partition takes GRUB's pointers along,
// as a realignment's does). A syslinux MBR disk copied with `--table gpt` boots too: its MBR
// holds syslinux-common's gptmbr.bin (cmp) and its partition the Legacy BIOS Bootable
// attribute (sgdisk -A), and sgdisk -v finds no problem. A GPT disk of 512-byte sectors whose
// ESP (FAT32 of 4 KiB clusters) holds GRUB for EFI, copied onto a 4Kn image, boots with OVMF
// from that image attached as an NVMe namespace of 4096-byte blocks; sgdisk reads the copy's
// table in 4096-byte sectors and blkid its ESP's 4096-byte ones.
// A Debian-like root (debianboot.h) copied with --new-ids boots from the copy with the source
// still attached: the running system's / and /srv are the copy's filesystems (the disk's serial
// and the superblock's UUID read inside the guest, against blkid of the copy on the host), and the
// kernel's command line, crypttab and the BLS entry it reads name the copy's ids. Without the
// rewritten references GRUB's search, root=UUID= and fstab would all lead to the source.

#include "blkidprobe.h"
#include "bootfixtures.h"
#include "buildsetting.h"
#include "clirun.h"
#include "debianboot.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

using namespace boottest;

class TestCopyBoot : public QObject
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

    void grubInTheMbrGapBootsFromTheCopy()
    {
        const QString source = m_fixtures.grubMbrGap();
        QVERIFY2(!source.isEmpty(), qPrintable(m_fixtures.error));
        expectBootFromCopy(source, QStringLiteral("gap-copy.img"), {});
    }

    void grubBiosBootPartitionBootsFromTheCopy()
    {
        const QString source = m_fixtures.grubBiosBoot();
        QVERIFY2(!source.isEmpty(), qPrintable(m_fixtures.error));
        // The realignment's verdict on a moved BIOS boot partition, and its fix-up, on the copy.
        expectBootFromCopy(source, QStringLiteral("biosboot-copy.img"),
                           "boot: partition 1: GRUB's core.img moves with BIOS boot partition 1");
    }

    void syslinuxOntoGptBootsFromTheCopy()
    {
        const QString source = m_fixtures.syslinuxFat();
        QVERIFY2(!source.isEmpty(), qPrintable(m_fixtures.error));
        const QString copy = m_dir.filePath(QStringLiteral("syslinux-gpt-copy.img"));
        expectBootFromCopy(source, QStringLiteral("syslinux-gpt-copy.img"), "gptmbr.bin",
                           {QStringLiteral("--table"), QStringLiteral("gpt")});
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(pwtest::SfdiskTable::read(copy).label, QStringLiteral("gpt"));
        const pwtest::ToolResult code = pwtest::runTool(
            QStringLiteral("cmp"), {QStringLiteral("-n"), QStringLiteral("440"), copy,
                                    QStringLiteral("/usr/lib/syslinux/mbr/gptmbr.bin")});
        QVERIFY2(code.ok(), code.out.constData());
        const pwtest::ToolResult attributes = pwtest::runTool(
            QStringLiteral("sgdisk"), {QStringLiteral("-A"), QStringLiteral("1:show"), copy});
        QVERIFY2(attributes.out.contains("1:2:1 (legacy BIOS bootable)"),
                 attributes.out.constData());
        const pwtest::ToolResult verified =
            pwtest::runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), copy});
        QVERIFY2(verified.out.contains("No problems found"), verified.out.constData());
    }

    void grubEfiOntoFourKnBootsFromNvme()
    {
        const QString source = m_fixtures.grubEfiFourKnReady();
        QVERIFY2(!source.isEmpty(), qPrintable(m_fixtures.error));
        const QString copy = m_dir.filePath(QStringLiteral("grub-efi-4kn.img"));
        QFile f(copy);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
                f.resize(QFileInfo(source).size() + (16 << 20)));
        f.close();
        {
            // The target is a 4Kn disk (an image file takes the source's sector size), and
            // sgdisk, which takes a file's sectors as 512 bytes, reads the copy through it.
            pwtest::LoopDevice loop(copy, 4096);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            const auto forget = qScopeGuard([&] {
                pwtest::runTool(QStringLiteral("partx"), {QStringLiteral("-d"), loop.path()});
            });
            const pwtest::CliResult r = pwtest::runCli(
                {QStringLiteral("copy"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                 m_dir.filePath(QStringLiteral("backups")), source, loop.path()},
                300000);
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
            qInfo("%s", r.out.constData());
            QVERIFY2(!r.out.contains("boot breaks"), r.out.constData());
            const pwtest::ToolResult table =
                pwtest::runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), loop.path()});
            QVERIFY2(table.out.contains("No problems found"), table.out.constData());
        }
        const pwtest::ToolResult esp = pwtest::runTool(
            QStringLiteral("blkid"),
            {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(256 * 4096),
             QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
             QStringLiteral("BLOCK_SIZE"), copy});
        QCOMPARE(esp.out.trimmed(), QByteArray("4096"));
        const BootRun run = bootImage(copy, true, 90000, 4096);
        QVERIFY2(run.booted,
                 qPrintable(QStringLiteral("the copy did not boot; console ends: ") + run.tail));
        qInfo("the 4Kn copy booted from NVMe in %.1f s", run.seconds);
    }

    void debianRootWithNewIdsBootsOnTheCopy()
    {
        DebianBootDisk source;
        QVERIFY2(source.make(m_fixtures, m_dir.path()), qPrintable(source.error));
        const QString copy = m_dir.filePath(QStringLiteral("debian-copy.img"));
        QFile f(copy);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(f.resize(QFileInfo(source.image).size() + (32 << 20)));
        f.close();
        const pwtest::CliResult r =
            pwtest::runCli({QStringLiteral("copy"), QStringLiteral("--yes"),
                            QStringLiteral("--new-ids"), QStringLiteral("--backup-dir"),
                            m_dir.filePath(QStringLiteral("backups")), source.image, copy},
                           300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        QVERIFY2(!r.out.contains("boot breaks"), r.out.constData());

        // The copy's ids as the host's tools read them.
        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(copy);
        QVERIFY2(table.ok && table.partitions.size() == 4, qPrintable(table.error));
        const QString root =
            pwtest::blkidProbe(copy, table.partitions.at(1).start * table.sectorSize).uuid;
        const QString srv =
            pwtest::blkidProbe(copy, table.partitions.at(2).start * table.sectorSize).uuid;
        const QString swapPart =
            table.partitions.at(3).entry.value(QLatin1String("uuid")).toString().toLower();
        QVERIFY(!root.isEmpty() && root != source.rootUuid);
        QVERIFY(!srv.isEmpty() && srv != source.srvUuid);
        QVERIFY(!swapPart.isEmpty() && swapPart != source.swapPartUuid);

        const ConsoleRun run = bootFirstOf({copy, source.image});
        qInfo("the copy's init ran after %.1f s", run.seconds);
        QVERIFY2(run.finished, run.console.right(1500).constData());
        for (const QByteArray &l : run.console.split('\n'))
            if (l.startsWith("PW-"))
                qInfo("%s", l.trimmed().constData());
        const auto line = [&](const QByteArray &tag) {
            for (const QByteArray &l : run.console.split('\n'))
                if (l.startsWith(tag + ' '))
                    return l.trimmed();
            return QByteArray("(no ") + tag + " line)";
        };
        const QByteArray rootLine = line("PW-ROOT"), srvLine = line("PW-SRV");
        const auto onCopy = [](const QString &uuid) {
            return "serial=pwdisk0 uuid=" + QString(uuid).remove(QLatin1Char('-')).toUtf8();
        };
        QVERIFY2(rootLine.endsWith(onCopy(root)), rootLine.constData());
        QVERIFY2(srvLine.endsWith(onCopy(srv)), srvLine.constData());
        QVERIFY2(line("PW-CMDLINE").contains("root=UUID=" + root.toUtf8() + ' '),
                 line("PW-CMDLINE").constData());
        QVERIFY2(line("PW-CRYPTTAB").contains("PARTUUID=" + swapPart.toUtf8() + ' '),
                 line("PW-CRYPTTAB").constData());
        QVERIFY2(line("PW-BLS").contains("root=UUID=" + root.toUtf8() + ' '),
                 line("PW-BLS").constData());
    }

private:
    // The plan says nothing breaks (and `says`, when given), and the copy boots.
    void expectBootFromCopy(const QString &source, const QString &name, const QByteArray &says,
                            const QStringList &options = {})
    {
        const QString copy = m_dir.filePath(name);
        QFile f(copy);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(f.resize(QFileInfo(source).size() + (64 << 20)));
        f.close();
        const pwtest::CliResult r = pwtest::runCli(
            QStringList{QStringLiteral("copy"), QStringLiteral("--yes"),
                        QStringLiteral("--backup-dir"), m_dir.filePath(QStringLiteral("backups"))} +
                options + QStringList{source, copy},
            300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        qInfo("%s", r.out.constData());
        QVERIFY2(!r.out.contains("boot breaks") && r.out.contains(says), r.out.constData());
        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(copy);
        QVERIFY2(table.ok, qPrintable(table.error));
        for (const pwtest::SfdiskPartition &p : table.partitions)
            if (p.type != QLatin1String("21686148-6449-6E6F-744E-656564454649"))
                QCOMPARE(p.start % 2048, 0);
        const BootRun run = bootImage(copy, false);
        QVERIFY2(run.booted,
                 qPrintable(QStringLiteral("the copy did not boot; console ends: ") + run.tail));
        qInfo("the copy booted in %.1f s", run.seconds);
    }

    QTemporaryDir m_dir;
    BootFixtures m_fixtures;
};

QTEST_GUILESS_MAIN(TestCopyBoot)
#include "tst_copyboot.moc"
