// `partwise-cli practice` makes the practice disks a teacher scripts: each preset is checked
// against sfdisk's reading of the table, carries sample files in every formatted partition, and
// is realigned by `realign --all` to nothing misaligned or off the grain, with every file of
// every partition intact (read through the filesystems' own drivers, root).

#include "buildsetting.h"
#include "clirun.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "sfdisktable.h"

#include <QCryptographicHash>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestPracticeCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    static SfdiskTable tableOf(const QString &image, int sectorSize)
    {
        return sectorSize == 4096 ? SfdiskTable::readWithSectorSize(image, 4096)
                                  : SfdiskTable::read(image);
    }

    static QString fsOf(const QJsonObject &partition)
    {
        const QString fs = partition.value(QStringLiteral("filesystem")).toString();
        return fs == QLatin1String("vfat") ? QStringLiteral("fat32") : fs;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }

    void listNamesThePresets()
    {
        const CliResult r = runCli({QStringLiteral("practice"), QStringLiteral("--list")});
        QCOMPARE(r.exitCode, 0);
        for (const char *name : {"windows-xp", "old-fdisk", "gpt-34", "4kn", "modern", "empty"})
            QVERIFY2(r.out.contains(QByteArray(name) + '\t'), r.out.constData());
    }

    void badInputChangesNothing()
    {
        const QString image = m_dir.filePath(QStringLiteral("bad.img"));
        CliResult r = runCli({QStringLiteral("practice"), QStringLiteral("no-such"), image});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("windows-xp"));
        r = runCli({QStringLiteral("practice"), QStringLiteral("--sector-size"),
                    QStringLiteral("512"), QStringLiteral("4kn"), image});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(image));
        QVERIFY(QFile(image).open(QIODevice::WriteOnly));
        r = runCli({QStringLiteral("practice"), QStringLiteral("modern"), image});
        QCOMPARE(r.exitCode, 2); // never overwrites
        QCOMPARE(QFileInfo(image).size(), 0);
    }

    void presetRealignsWithFilesIntact_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("sectorSize");
        QTest::newRow("windows-xp") << QStringLiteral("windows-xp") << 512;
        QTest::newRow("old-fdisk") << QStringLiteral("old-fdisk") << 512;
        QTest::newRow("gpt-34") << QStringLiteral("gpt-34") << 512;
        QTest::newRow("4kn") << QStringLiteral("4kn") << 4096;
        QTest::newRow("modern") << QStringLiteral("modern") << 512;
    }

    void presetRealignsWithFilesIntact()
    {
        QFETCH(QString, preset);
        QFETCH(int, sectorSize);
        const QString image = m_dir.filePath(preset + QStringLiteral(".img"));
        const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("--size"),
                                       QStringLiteral("256m"), preset, image});
        QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));

        // The table as sfdisk reads it is the table check reports.
        const SfdiskTable before = tableOf(image, sectorSize);
        QVERIFY2(before.ok, qPrintable(before.error));
        const CliResult check = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QVERIFY2(check.jsonValid, qPrintable(check.describe()));
        const QJsonObject device = check.devices().first().toObject();
        QCOMPARE(device.value(QStringLiteral("logical_sector_size")).toInt(), sectorSize);
        QCOMPARE(device.value(QStringLiteral("partitions")).toArray().size(),
                 before.partitions.size());
        for (const SfdiskPartition &p : before.partitions) {
            const QJsonObject part = partitionByNumber(device, p.number);
            QCOMPARE(part.value(QStringLiteral("start_sector")).toInteger(), p.start);
            QCOMPARE(part.value(QStringLiteral("end_sector")).toInteger(), p.end());
        }

        PW_REQUIRE_ROOT_OR_SKIP();
        QMap<int, QMap<QString, QByteArray>> files;
        QMap<int, QString> filesystems;
        {
            LoopDevice loop(image, sectorSize);
            QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
            for (const SfdiskPartition &p : before.partitions) {
                const QString fs = fsOf(partitionByNumber(device, p.number));
                if (fs.isEmpty() || fs == QLatin1String("swap"))
                    continue;
                QString error;
                files[p.number] = filesystemTreeSha256(loop.partitionNode(p.number), fs, &error);
                QVERIFY2(error.isEmpty(), qPrintable(error));
                filesystems[p.number] = fs;
                // The sample files are there, with what they say.
                QByteArray numbers;
                for (int i = 1; i <= 2000; ++i)
                    numbers += QByteArray::number(i) + '\n';
                const QByteArray expected =
                    QCryptographicHash::hash(numbers, QCryptographicHash::Sha256).toHex();
                QVERIFY2(files[p.number].value(QStringLiteral("numbers.txt")) == expected,
                         qPrintable(QStringList(files[p.number].keys()).join(QLatin1Char(' '))));
                QVERIFY(files[p.number].contains(QStringLiteral("pattern.bin")));
                QVERIFY(files[p.number].contains(QStringLiteral("README.txt")));
            }
        }
        QVERIFY(!files.isEmpty());

        const CliResult realigned = runCli({QStringLiteral("realign"), QStringLiteral("--all"),
                                            QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                                            m_dir.filePath(QStringLiteral("backups")), image},
                                           600000);
        QVERIFY2(realigned.exitCode == 0,
                 qPrintable(realigned.describe() + QString::fromUtf8(realigned.out)));

        const CliResult after = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QVERIFY2(after.exitCode == 0, qPrintable(after.describe()));
        const SfdiskTable table = tableOf(image, sectorSize);
        for (const QJsonValue &v :
             after.devices().first().toObject().value(QStringLiteral("partitions")).toArray()) {
            const QString status = v.toObject().value(QStringLiteral("status")).toString();
            QVERIFY2(status == QLatin1String("aligned") || status == QLatin1String("container"),
                     qPrintable(status));
            const SfdiskPartition *p =
                table.find(v.toObject().value(QStringLiteral("number")).toInt());
            QVERIFY(p);
            if (status == QLatin1String("aligned")) // an extended container holds only EBRs
                QCOMPARE(p->start * sectorSize % (1 << 20), 0); // sfdisk's own numbers
        }
        LoopDevice loop(image, sectorSize);
        QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            const QString node = loop.partitionNode(it.key());
            QString error;
            const QStringList diff =
                compareTrees(it.value(), filesystemTreeSha256(node, filesystems[it.key()], &error));
            QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QStringLiteral(", ")) + error));
            const auto fsck = checkFilesystemReadOnly(node, filesystems[it.key()]);
            QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
        }
    }
};

QTEST_GUILESS_MAIN(TestPracticeCli)
#include "tst_practicecli.moc"
