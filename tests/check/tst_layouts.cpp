// check --json and the readable table on every seed layout, against sfdisk, parted and blkid.
#include "buildsetting.h"
#include "clirun.h"
#include "diskimagebuilder.h"
#include "expectations.h"
#include "filechecksum.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestLayouts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fixturesAreWhatTheySay();
    void json_data();
    void json();
    void human_data();
    void human();
    void corruptPrimaryIsReadFromBackupWithWarning();
    void fourKnUsesLba6AndLba256();
    void moreThanHundredPartitions();

private:
    void addLayoutRows();
    const Fixture &fixture(const QString &name) const;

    QTemporaryDir m_dir;
    QMap<QString, Fixture> m_fixtures;
};

void TestLayouts::initTestCase()
{
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    DiskImageBuilder b(m_dir.path());
    const QList<Fixture> all{b.winXpMbr(),   b.oldFdiskCylinder(), b.handAlignedExtended(),
                             b.gptClassic(), b.gpt4kn(),           b.gptMany(),
                             b.modernMbr(),  b.modernGpt(),        b.corruptPrimaryGpt()};
    for (const Fixture &f : all) {
        QVERIFY2(f.ok, qPrintable(f.error));
        m_fixtures.insert(f.name, f);
    }
}

const Fixture &TestLayouts::fixture(const QString &name) const
{
    static const Fixture none;
    auto it = m_fixtures.find(name);
    return it == m_fixtures.end() ? none : *it;
}

// Sanity of the fixtures themselves, read back with the independent tools only.
void TestLayouts::fixturesAreWhatTheySay()
{
    const SfdiskTable xp = SfdiskTable::read(fixture(QStringLiteral("winxp-mbr")).path);
    QVERIFY2(xp.ok, qPrintable(xp.error));
    QCOMPARE(xp.partitions.value(0).start, 63);

    const SfdiskTable cyl = SfdiskTable::read(fixture(QStringLiteral("old-fdisk-cylinder")).path);
    QVERIFY2(cyl.ok, qPrintable(cyl.error));
    QCOMPARE(cyl.partitions.size(), 5);
    QCOMPARE(cyl.find(2)->kind, QStringLiteral("extended"));
    QCOMPARE(cyl.find(2)->start % 16065, 0);
    QCOMPARE(cyl.find(7)->kind, QStringLiteral("logical"));

    const SfdiskTable hand =
        SfdiskTable::read(fixture(QStringLiteral("hand-aligned-extended")).path);
    QVERIFY2(hand.ok, qPrintable(hand.error));
    QCOMPARE(hand.find(2)->start % 2, 1);
    QCOMPARE(hand.find(5)->start % 2048, 0);
    QCOMPARE(hand.find(6)->start % 2048, 0);

    const SfdiskTable classic = SfdiskTable::read(fixture(QStringLiteral("gpt-34-40-2048")).path);
    QVERIFY2(classic.ok, qPrintable(classic.error));
    QCOMPARE(classic.firstLba, 34);
    QCOMPARE(classic.find(1)->start, 34);
    QCOMPARE(classic.find(2)->start, 40);
    QCOMPARE(classic.find(3)->start, 2048);

    const SfdiskTable k4 = expectedTable(fixture(QStringLiteral("gpt-4kn")));
    QVERIFY2(k4.ok, qPrintable(k4.error));
    QCOMPARE(k4.find(1)->start, 6);
    QCOMPARE(k4.find(2)->start, 256);

    const SfdiskTable many = SfdiskTable::read(fixture(QStringLiteral("gpt-many-110")).path);
    QVERIFY2(many.ok, qPrintable(many.error));
    QCOMPARE(many.partitions.size(), 110);

    const SfdiskTable corrupt =
        SfdiskTable::read(fixture(QStringLiteral("gpt-corrupt-primary")).path);
    QVERIFY2(corrupt.ok, qPrintable(corrupt.error));
    QCOMPARE(corrupt.partitions.size(), 3); // libfdisk falls back to the backup header
}

void TestLayouts::addLayoutRows()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("extraArgs");
    for (const QString &name : m_fixtures.keys())
        QTest::newRow(qPrintable(name)) << name << QStringList();
    QTest::newRow("gpt-4kn --sector-size 4096")
        << QStringLiteral("gpt-4kn")
        << QStringList{QStringLiteral("--sector-size"), QStringLiteral("4096")};
}

void TestLayouts::json_data()
{
    addLayoutRows();
}

void TestLayouts::json()
{
    QFETCH(QString, name);
    QFETCH(QStringList, extraArgs);
    const Fixture &f = fixture(name);
    const SfdiskTable table = expectedTable(f);
    QVERIFY2(table.ok, qPrintable(table.error));
    Policy policy;
    policy.logicalSectorSize = f.logicalSectorSize;
    policy.physicalReported = f.logicalSectorSize; // an image file reports physical = logical
    const QByteArray before = fileSha256(f.path);

    const CliResult r = runCli(QStringList{QStringLiteral("check"), QStringLiteral("--json")} +
                               extraArgs + QStringList{f.path});
    QVERIFY2(r.started && !r.crashed, qPrintable(r.describe()));
    QVERIFY2(r.jsonValid, qPrintable(r.jsonError + QStringLiteral(": ") + r.describe()));
    QCOMPARE(r.devices().size(), 1);
    const QJsonObject device = r.device(f.path);
    QStringList problems = verifyDevice(device, table, policy, QFileInfo(f.path).size());
    problems += verifyFilesystems(device, table, f.path);
    if (f.logicalSectorSize == 512) // parted sees image files as 512-byte devices
        problems += verifyPartedOptimal(device, table, f.path);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QCOMPARE(r.exitCode, expectedExitCode(table, policy));
    QCOMPARE(fileSha256(f.path), before);
}

void TestLayouts::human_data()
{
    addLayoutRows();
}

void TestLayouts::human()
{
    QFETCH(QString, name);
    QFETCH(QStringList, extraArgs);
    const Fixture &f = fixture(name);
    const SfdiskTable table = expectedTable(f);
    QVERIFY2(table.ok, qPrintable(table.error));
    Policy policy;
    policy.logicalSectorSize = f.logicalSectorSize;
    policy.physicalReported = f.logicalSectorSize;
    const QByteArray before = fileSha256(f.path);

    const CliResult r =
        runCli(QStringList{QStringLiteral("check")} + extraArgs + QStringList{f.path});
    QVERIFY2(r.started && !r.crashed, qPrintable(r.describe()));
    const QStringList problems = verifyHumanOutput(QString::fromUtf8(r.out), table, policy);
    QVERIFY2(problems.isEmpty(),
             qPrintable(problems.join(QLatin1Char('\n')) + QStringLiteral("\n--- output:\n") +
                        QString::fromUtf8(r.out)));
    QCOMPARE(r.exitCode, expectedExitCode(table, policy));
    QCOMPARE(fileSha256(f.path), before);
}

void TestLayouts::corruptPrimaryIsReadFromBackupWithWarning()
{
    const Fixture &f = fixture(QStringLiteral("gpt-corrupt-primary"));
    const QByteArray before = fileSha256(f.path);
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json"), f.path});
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    const QJsonArray warnings = r.device(f.path).value(QStringLiteral("warnings")).toArray();
    const QRegularExpression about(QStringLiteral("backup|corrupt"),
                                   QRegularExpression::CaseInsensitiveOption);
    bool mentioned = false;
    for (const QJsonValue w : warnings)
        mentioned = mentioned || w.toString().contains(about);
    QVERIFY2(mentioned, qPrintable(QStringLiteral("no warning about the corrupt primary GPT in "
                                                  "devices[0].warnings; ") +
                                   r.describe()));
    QCOMPARE(fileSha256(f.path), before); // read-only: libparted must not "fix" it
}

void TestLayouts::fourKnUsesLba6AndLba256()
{
    const Fixture &f = fixture(QStringLiteral("gpt-4kn"));
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json"), f.path});
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    const QJsonObject device = r.device(f.path);
    QCOMPARE(device.value(QStringLiteral("logical_sector_size")).toInt(), 4096);
    const QJsonObject p1 = partitionByNumber(device, 1);
    const QJsonObject p2 = partitionByNumber(device, 2);
    QCOMPARE(p1.value(QStringLiteral("start_sector")).toInteger(), 6);
    QCOMPARE(p1.value(QStringLiteral("status")).toString(), QStringLiteral("sector-aligned"));
    QCOMPARE(p2.value(QStringLiteral("start_sector")).toInteger(), 256);
    QCOMPARE(p2.value(QStringLiteral("status")).toString(), QStringLiteral("aligned"));
    QCOMPARE(p2.value(QStringLiteral("size_bytes")).toInteger(), 4096LL * 4096);
    QCOMPARE(r.exitCode, 0);
}

void TestLayouts::moreThanHundredPartitions()
{
    const Fixture &f = fixture(QStringLiteral("gpt-many-110"));
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json"), f.path});
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    const QJsonArray parts = r.device(f.path).value(QStringLiteral("partitions")).toArray();
    QCOMPARE(parts.size(), 110);
    QCOMPARE(
        partitionByNumber(r.device(f.path), 110).value(QStringLiteral("start_sector")).toInteger(),
        2048LL * 110);
    QCOMPARE(partitionByNumber(r.device(f.path), 50).value(QStringLiteral("status")).toString(),
             QStringLiteral("misaligned"));
    QCOMPARE(r.exitCode, 1);
}

QTEST_GUILESS_MAIN(TestLayouts)
#include "tst_layouts.moc"
