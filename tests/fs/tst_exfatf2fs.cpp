// exFAT and F2FS through a plan, as a USB stick or an SD card gets them: created on the grain
// (the exFAT cluster heap too, by dump.exfat's account), relabelled with their own tools, and
// checked read-only by fsck.exfat and fsck.f2fs. Labels and checks inside an image use a loop
// device, so those need root.

#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestExfatF2fs : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeFile(const QString &name, const QByteArray &content)
    {
        QFile f(m_dir.filePath(name));
        return f.open(QIODevice::WriteOnly) && f.write(content) == content.size() ? f.fileName()
                                                                                  : QString();
    }

    CliResult apply(const QString &plan, const QString &image)
    {
        return runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                       QStringLiteral("--backup-dir"), m_dir.filePath(QStringLiteral("backups")),
                       plan, image});
    }

    static QString blkidValue(const QString &image, qint64 offset, const QString &tag)
    {
        return QString::fromUtf8(
                   runTool(QStringLiteral("blkid"),
                           {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(offset),
                            QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                            tag, image})
                       .out)
            .trimmed();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }

    void createLabelAndCheck()
    {
        const QString image = m_dir.filePath(QStringLiteral("stick.img"));
        QFile f(image);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(320 << 20));
        f.close();
        const QString create = writeFile(
            QStringLiteral("create.json"),
            "{\"operations\":[{\"op\":\"new-table\",\"type\":\"msdos\"},"
            "{\"op\":\"create\",\"size\":\"128MiB\",\"fs\":\"exfat\",\"label\":\"STICK\"},"
            "{\"op\":\"create\",\"size\":\"rest\",\"fs\":\"f2fs\",\"label\":\"android\"}]}");
        const CliResult made = apply(create, image);
        QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
        const SfdiskTable table = SfdiskTable::read(image);
        QVERIFY(table.ok && table.partitions.size() == 2);
        const qint64 exfatAt = table.find(1)->start * 512;
        const qint64 f2fsAt = table.find(2)->start * 512;
        QCOMPARE(exfatAt % (1 << 20), 0);
        QCOMPARE(f2fsAt % (1 << 20), 0);
        QCOMPARE(blkidValue(image, exfatAt, QStringLiteral("TYPE")), QStringLiteral("exfat"));
        QCOMPARE(blkidValue(image, f2fsAt, QStringLiteral("TYPE")), QStringLiteral("f2fs"));
        QCOMPARE(blkidValue(image, f2fsAt, QStringLiteral("LABEL")), QStringLiteral("android"));

        PW_REQUIRE_ROOT_OR_SKIP();
        {
            LoopDevice loop(image);
            QVERIFY(loop.ok() && loop.addPartitions());
            const auto dump = runTool(QStringLiteral("dump.exfat"), {loop.partitionNode(1)});
            static const QRegularExpression heap(
                QStringLiteral("Cluster Heap Offset \\(sector offset\\):\\s*(\\d+)"));
            const auto m = heap.match(QString::fromUtf8(dump.out));
            QVERIFY2(m.hasMatch(), dump.out.constData());
            QCOMPARE((exfatAt + m.captured(1).toLongLong() * 512) % (1 << 20), 0);
        }
        const QString relabel =
            writeFile(QStringLiteral("label.json"),
                      "{\"operations\":[{\"op\":\"label\",\"number\":1,\"label\":\"SHARED\"},"
                      "{\"op\":\"label\",\"number\":2,\"label\":\"phone\"},"
                      "{\"op\":\"check\",\"number\":1,\"repair\":false},"
                      "{\"op\":\"check\",\"number\":2,\"repair\":false}]}");
        const CliResult labelled = apply(relabel, image);
        QVERIFY2(labelled.exitCode == 0, qPrintable(labelled.describe()));
        QCOMPARE(blkidValue(image, exfatAt, QStringLiteral("LABEL")), QStringLiteral("SHARED"));
        QCOMPARE(blkidValue(image, f2fsAt, QStringLiteral("LABEL")), QStringLiteral("phone"));
        LoopDevice loop(image);
        QVERIFY(loop.ok() && loop.addPartitions());
        QVERIFY(runTool(QStringLiteral("fsck.exfat"), {QStringLiteral("-n"), loop.partitionNode(1)})
                    .ok());
        QVERIFY(runTool(QStringLiteral("fsck.f2fs"),
                        {QStringLiteral("--dry-run"), loop.partitionNode(2)})
                    .ok());
    }
};

QTEST_GUILESS_MAIN(TestExfatF2fs)
#include "tst_exfatf2fs.moc"
