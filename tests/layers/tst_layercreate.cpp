// LUKS2 volumes and LVM physical volumes created by Partwise are aligned by their own tools'
// account: `cryptsetup luksDump` gives a data offset on the grain (and 4 KiB encryption sectors
// when 4096-byte physical sectors are assumed), `pvs` a first extent on the grain. A passphrase
// never appears on a command line or in a plan file.

#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include "layer/layercreator.h"
#include "ops/applyrunner.h"
#include "ops/planfile.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using pwtest::runCli;

namespace {

constexpr qint64 MiB = 1 << 20;

qint64 luks2DataOffset(const QString &dump)
{
    static const QRegularExpression offset(
        QStringLiteral("Data segments:[\\s\\S]*?offset:\\s*(\\d+) \\[bytes\\]"));
    const auto m = offset.match(dump);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

} // namespace

class TestLayerCreate : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    QString blankImage(const QString &name, qint64 bytes)
    {
        QFile f(path(name));
        return f.open(QIODevice::WriteOnly) && f.resize(bytes) ? f.fileName() : QString();
    }

    QString writeFile(const QString &name, const QByteArray &content)
    {
        QFile f(path(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
            return {};
        return f.fileName();
    }

    // luksDump of partition `number` of `image`, read from a copy of its first 32 MiB.
    QString luksDumpOf(const QString &image, int number)
    {
        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(image);
        const auto *p = table.find(number);
        if (!p)
            return {};
        const QString header = path(QStringLiteral("header-%1.bin").arg(number));
        pwtest::runTool(QStringLiteral("dd"),
                        {QStringLiteral("if=") + image, QStringLiteral("of=") + header,
                         QStringLiteral("bs=1M"), QStringLiteral("iflag=skip_bytes"),
                         QStringLiteral("skip=%1").arg(p->start * 512), QStringLiteral("count=32"),
                         QStringLiteral("status=none")});
        return QString::fromUtf8(
            pwtest::runTool(QStringLiteral("cryptsetup"), {QStringLiteral("luksDump"), header})
                .out);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }

    // A grain of 3 MiB (a RAID stripe, say) shows the offset follows the grain rather than
    // cryptsetup's 16 MiB default, which is no multiple of it.
    void planCreatesLuks2OnTheGrain_data()
    {
        QTest::addColumn<QString>("grain");
        QTest::addColumn<qint64>("grainBytes");
        QTest::newRow("1 MiB") << QStringLiteral("1m") << MiB;
        QTest::newRow("3 MiB") << QStringLiteral("3m") << 3 * MiB;
    }

    void planCreatesLuks2OnTheGrain()
    {
        QFETCH(QString, grain);
        QFETCH(qint64, grainBytes);
        const QString image = blankImage(QStringLiteral("luks-%1.img").arg(grain), 160 * MiB);
        const QString key = writeFile(QStringLiteral("key"), "correct horse battery staple");
        const QString plan =
            writeFile(QStringLiteral("plan.json"),
                      QStringLiteral("{\"operations\":[{\"op\":\"new-table\",\"type\":\"gpt\"},"
                                     "{\"op\":\"create\",\"size\":\"64MiB\",\"fs\":\"luks2\","
                                     "\"label\":\"vault\",\"key_file\":\"%1\"}]}")
                          .arg(key)
                          .toUtf8());
        const auto r = runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                               QStringLiteral("--grain"), grain, QStringLiteral("--backup-dir"),
                               path(QStringLiteral("backups")), plan, image});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));

        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(image);
        QVERIFY(table.ok && table.find(1));
        const qint64 start = table.find(1)->start * 512;
        const QString dump = luksDumpOf(image, 1);
        const qint64 offset = luks2DataOffset(dump);
        QVERIFY2(offset > 0, qPrintable(dump));
        QCOMPARE(offset % grainBytes, 0);
        QCOMPARE((start + offset) % grainBytes, 0);
        // Partwise assumes 4096-byte physical sectors on an image: 4 KiB encryption sectors.
        QVERIFY2(dump.contains(QRegularExpression(QStringLiteral("sector:\\s*4096"))),
                 qPrintable(dump));
        QVERIFY(dump.contains(QStringLiteral("vault")));

        // The key file's passphrase opens it (checked without device-mapper).
        const QString header = path(QStringLiteral("header-1.bin"));
        QVERIFY(pwtest::runTool(QStringLiteral("cryptsetup"),
                                {QStringLiteral("open"), QStringLiteral("--test-passphrase"),
                                 QStringLiteral("--key-file"), key, header})
                    .ok());
        const auto check = runCli({QStringLiteral("check"), QStringLiteral("--json"),
                                   QStringLiteral("--grain"), grain, image});
        const QJsonArray layers = pwtest::partitionByNumber(check.devices().first().toObject(), 1)
                                      .value(QStringLiteral("layers"))
                                      .toArray();
        QCOMPARE(layers.size(), 1);
        QCOMPARE(layers.first().toObject().value(QStringLiteral("status")).toString(),
                 QStringLiteral("aligned"));
    }

    void planWithoutKeyFileIsRefused()
    {
        const QString image = blankImage(QStringLiteral("refused.img"), 100 * MiB);
        const QByteArray before = pwtest::fileSha256(image);
        const QString plan = writeFile(QStringLiteral("nokey.json"),
                                       "{\"operations\":[{\"op\":\"new-table\",\"type\":\"gpt\"},"
                                       "{\"op\":\"create\",\"size\":\"40MiB\",\"fs\":\"luks2\"}]}");
        const auto r =
            runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                    QStringLiteral("--backup-dir"), path(QStringLiteral("backups")), plan, image});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("key_file"), r.err.constData());
        QCOMPARE(pwtest::fileSha256(image), before);
    }

    // The window's way: a typed passphrase in the queued operation. A stand-in cryptsetup first
    // in PATH records its command line and hands over to the real one.
    void passphraseNeverOnACommandLineNorInAPlan()
    {
        const QString bin = path(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin));
        const QString argvLog = path(QStringLiteral("argv.log"));
        const QString wrapper = bin + QStringLiteral("/cryptsetup");
        QVERIFY(!writeFile(QStringLiteral("bin/cryptsetup"),
                           QStringLiteral("#!/bin/sh\necho \"$@\" >> %1\nexec /usr/sbin/cryptsetup "
                                          "\"$@\"\n")
                               .arg(argvLog)
                               .toUtf8())
                     .isEmpty());
        QFile::setPermissions(wrapper, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                           QFileDevice::ExeOwner);
        const QByteArray oldPath = qgetenv("PATH");
        qputenv("PATH", bin.toLocal8Bit() + ':' + oldPath);

        const QByteArray secret = "s3cret phrase with spaces";
        const QString image = blankImage(QStringLiteral("window.img"), 100 * MiB);
        Operation table;
        table.type = Operation::Type::NewTable;
        table.tableType = QStringLiteral("gpt");
        Operation create;
        create.type = Operation::Type::Create;
        create.sizeBytes = 40 * MiB;
        create.filesystem = QStringLiteral("luks2");
        create.passphrase = secret;
        ApplyOptions options;
        options.backupRoot = path(QStringLiteral("backups"));
        options.journalFolder = path(QStringLiteral("journals"));
        const ApplyResult applied = applyOperations(image, {table, create}, options);
        qputenv("PATH", oldPath);
        QVERIFY2(applied.ok, qPrintable(applied.error));

        QFile log(argvLog);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray argv = log.readAll();
        QVERIFY2(argv.contains("luksFormat"), argv.constData()); // the stand-in did run
        QVERIFY(!argv.contains("s3cret"));
        QVERIFY(!applied.log.join(QLatin1Char('\n')).contains(QStringLiteral("s3cret")));
        QVERIFY(!serializePlan({table, create}).contains("s3cret"));

        const QString header = path(QStringLiteral("window-header.bin"));
        luksDumpOf(image, 1);
        QFile::rename(path(QStringLiteral("header-1.bin")), header);
        const QString key = writeFile(QStringLiteral("secret"), secret);
        QVERIFY(pwtest::runTool(QStringLiteral("cryptsetup"),
                                {QStringLiteral("open"), QStringLiteral("--test-passphrase"),
                                 QStringLiteral("--key-file"), key, header})
                    .ok());
    }

    void pvcreatedOnTheGrain()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString image = blankImage(QStringLiteral("pv.img"), 160 * MiB);
        const QString plan =
            writeFile(QStringLiteral("pv.json"),
                      "{\"operations\":[{\"op\":\"new-table\",\"type\":\"gpt\"},"
                      "{\"op\":\"create\",\"size\":\"64MiB\",\"fs\":\"lvm-pv\"}]}");
        const auto r =
            runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--grain"),
                    QStringLiteral("3m"), QStringLiteral("--backup-dir"),
                    path(QStringLiteral("backups")), plan, image});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        pwtest::LoopDevice loop(image);
        QVERIFY(loop.ok() && loop.addPartitions());
        const auto pvs = pwtest::runTool(
            QStringLiteral("pvs"),
            {QStringLiteral("--noheadings"), QStringLiteral("--units"), QStringLiteral("b"),
             QStringLiteral("--nosuffix"), QStringLiteral("-o"), QStringLiteral("pe_start"),
             QStringLiteral("--config"),
             QStringLiteral("devices { obtain_device_list_from_udev=0 }"), loop.partitionNode(1)});
        QVERIFY2(pvs.ok(), qPrintable(pvs.describe()));
        const qint64 peStart = QString::fromUtf8(pvs.out).trimmed().toLongLong();
        const qint64 start = pwtest::SfdiskTable::read(image).find(1)->start * 512;
        QVERIFY(peStart > 0);
        QCOMPARE(peStart % (3 * MiB), 0);
        QCOMPARE((start + peStart) % (3 * MiB), 0);
    }
};

QTEST_GUILESS_MAIN(TestLayerCreate)
#include "tst_layercreate.moc"
