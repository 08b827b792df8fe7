// A disk that boots, copied by `partwise-cli copy` onto a larger disk, boots from the copy in
// QEMU: GRUB for BIOS with its core.img in the MBR gap behind a partition at sector 63, and GRUB
// with a BIOS boot partition at sector 34 of a GPT disk. The copy's partitions start on 1 MiB,
// and the plan says nothing breaks (the moved BIOS boot partition takes GRUB's pointers along,
// as a realignment's does).

#include "bootfixtures.h"
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "sfdisktable.h"

#include <QFile>
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

private:
    // The plan says nothing breaks (and `says`, when given), and the copy boots.
    void expectBootFromCopy(const QString &source, const QString &name, const QByteArray &says)
    {
        const QString copy = m_dir.filePath(name);
        QFile f(copy);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(f.resize(QFileInfo(source).size() + (64 << 20)));
        f.close();
        const pwtest::CliResult r = pwtest::runCli(
            {QStringLiteral("copy"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
             m_dir.filePath(QStringLiteral("backups")), source, copy},
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
