// While realign writes to a disk, a udev rule keeps desktop automounters (udisks2) off that disk
// and its partitions; it is gone when the write ends, and one left by a killed run is removed at
// the next start of partwise-cli. Checked on a loop device (root), with the rules written to a
// folder of the test's own (PARTWISE_UDEV_RULES_DIR) so the machine's udev is left alone.

#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestAutomount : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_rules;

    // 384 MiB of random data in a GPT partition at sector 34: a move that takes a while.
    QString makeImage(const QString &name)
    {
        const QString image = m_dir.filePath(name);
        const auto dd = runTool(QStringLiteral("dd"),
                                {QStringLiteral("if=/dev/urandom"), QStringLiteral("of=") + image,
                                 QStringLiteral("bs=1M"), QStringLiteral("count=390"),
                                 QStringLiteral("status=none")});
        if (!dd.ok())
            return {};
        const auto table = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                                   "label: gpt\nfirst-lba: 34\nstart=34, size=384M\n");
        return table.ok() ? image : QString();
    }

    QStringList rules() const
    {
        return QDir(m_rules).entryList({QStringLiteral("*.rules")}, QDir::Files);
    }

    QStringList realignArgs(const QString &device) const
    {
        return {QStringLiteral("realign"),
                QStringLiteral("--yes"),
                QStringLiteral("--journal"),
                m_dir.filePath(QStringLiteral("job.journal")),
                QStringLiteral("--backup-dir"),
                m_dir.filePath(QStringLiteral("backups")),
                device};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
        m_rules = m_dir.filePath(QStringLiteral("rules.d"));
        qputenv("PARTWISE_UDEV_RULES_DIR", QFile::encodeName(m_rules));
    }

    void inhibitedExactlyWhileWriting()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString image = makeImage(QStringLiteral("write.img"));
        QVERIFY(!image.isEmpty());
        LoopDevice loop(image);
        QVERIFY(loop.ok() && loop.addPartitions());
        const QString name = QFileInfo(loop.path()).fileName();

        QProcess cli;
        cli.start(pwtest::buildSetting("PARTWISE_CLI"), realignArgs(loop.path()));
        QVERIFY(cli.waitForStarted());
        QString seen;
        QByteArray content;
        while (cli.state() != QProcess::NotRunning && seen.isEmpty()) {
            if (!rules().isEmpty()) {
                seen = rules().first();
                QFile f(QDir(m_rules).filePath(seen));
                if (f.open(QIODevice::ReadOnly))
                    content = f.readAll();
            }
            QTest::qWait(5);
        }
        QVERIFY(cli.waitForFinished(300000));
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY2(!seen.isEmpty(), "no inhibition rule appeared during the write");
        QVERIFY2(seen.endsWith(QStringLiteral("-%1.rules").arg(name)), qPrintable(seen));
        QVERIFY2(content.contains("UDISKS_IGNORE}=\"1\""), content.constData());
        QVERIFY2(content.contains(QStringLiteral("KERNEL==\"%1|%1p[0-9]*\"").arg(name).toUtf8()),
                 content.constData());
        QVERIFY2(rules().isEmpty(), qPrintable(rules().join(QLatin1Char(' '))));

        // Checking writes nothing and inhibits nothing.
        const CliResult check = runCli({QStringLiteral("check"), loop.path()});
        QCOMPARE(check.exitCode, 0);
        QVERIFY(rules().isEmpty());
    }

    void killedRunsRuleIsRemovedAtTheNextStart()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString image = makeImage(QStringLiteral("killed.img"));
        QVERIFY(!image.isEmpty());
        LoopDevice loop(image);
        QVERIFY(loop.ok() && loop.addPartitions());
        // SIGKILL in the middle of the move: once the rule is there and data is moving.
        QProcess cli;
        cli.setProcessChannelMode(QProcess::MergedChannels);
        cli.start(pwtest::buildSetting("PARTWISE_CLI"), realignArgs(loop.path()));
        QVERIFY(cli.waitForStarted());
        QByteArray output;
        while (cli.state() != QProcess::NotRunning &&
               (rules().isEmpty() || !output.contains("moving:"))) {
            cli.waitForReadyRead(5);
            output += cli.readAll();
        }
        cli.kill();
        QVERIFY(cli.waitForFinished());
        QCOMPARE(cli.exitStatus(), QProcess::CrashExit);
        QCOMPARE(rules().size(), 1); // nobody was left to remove it

        // The next start of partwise-cli removes it; resume then finishes the move and leaves
        // no rule behind either.
        const CliResult check = runCli({QStringLiteral("check"), image});
        QVERIFY(check.started);
        QVERIFY2(rules().isEmpty(), qPrintable(rules().join(QLatin1Char(' '))));
        const CliResult resumed =
            runCli({QStringLiteral("resume"), QStringLiteral("--journal"),
                    m_dir.filePath(QStringLiteral("job.journal")), loop.path()},
                   300000);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.describe()));
        QVERIFY(rules().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAutomount)
#include "tst_automount.moc"
