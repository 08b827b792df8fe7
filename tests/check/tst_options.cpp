// check options: --grain, --trust-drive, several targets, and the exit codes per layout.
#include "buildsetting.h"
#include "clirun.h"
#include "diskimagebuilder.h"
#include "expectations.h"
#include "filechecksum.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestOptions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void grain4kOnClassicGpt();
    void grainSpellings_data();
    void grainSpellings();
    void trustDriveOnXpImage();
    void exitCodes_data();
    void exitCodes();
    void severalTargets();

private:
    QStringList problemsFor(const Fixture &f, const Policy &policy, const QStringList &args,
                            int *exitCode);

    QTemporaryDir m_dir;
    Fixture m_classic, m_xp, m_modern;
};

void TestOptions::initTestCase()
{
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    DiskImageBuilder b(m_dir.path());
    m_classic = b.gptClassic();
    m_xp = b.winXpMbr();
    m_modern = b.modernGpt();
    for (const Fixture *f : {&m_classic, &m_xp, &m_modern})
        QVERIFY2(f->ok, qPrintable(f->error));
}

// Runs check --json with args on f and compares with sfdisk under policy.
QStringList TestOptions::problemsFor(const Fixture &f, const Policy &policy,
                                     const QStringList &args, int *exitCode)
{
    const SfdiskTable table = expectedTable(f);
    if (!table.ok)
        return {table.error};
    const QByteArray before = fileSha256(f.path);
    const CliResult r = runCli(QStringList{QStringLiteral("check"), QStringLiteral("--json")} +
                               args + QStringList{f.path});
    *exitCode = r.exitCode;
    if (!r.jsonValid)
        return {QStringLiteral("no JSON: ") + r.describe()};
    QStringList problems = verifyDevice(r.device(f.path), table, policy, QFileInfo(f.path).size());
    if (r.exitCode != expectedExitCode(table, policy))
        problems << QStringLiteral("exit code %1, expected %2")
                        .arg(r.exitCode)
                        .arg(expectedExitCode(table, policy));
    if (fileSha256(f.path) != before)
        problems << QStringLiteral("the image changed");
    return problems;
}

void TestOptions::grain4kOnClassicGpt()
{
    Policy policy;
    policy.grainBytes = 4096;
    int exitCode = -1;
    const QStringList problems = problemsFor(
        m_classic, policy, {QStringLiteral("--grain"), QStringLiteral("4k")}, &exitCode);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    // Spelled out from the seed: 34 is the classic misaligned start, 40 is 4 KiB aligned.
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json"),
                                QStringLiteral("--grain"), QStringLiteral("4k"), m_classic.path});
    const QJsonObject d = r.device(m_classic.path);
    QCOMPARE(partitionByNumber(d, 1).value(QStringLiteral("status")).toString(),
             QStringLiteral("misaligned"));
    QCOMPARE(partitionByNumber(d, 1).value(QStringLiteral("misalignment_bytes")).toInteger(), 1024);
    QCOMPARE(partitionByNumber(d, 2).value(QStringLiteral("status")).toString(),
             QStringLiteral("aligned"));
    QCOMPARE(exitCode, 1);
}

void TestOptions::grainSpellings_data()
{
    QTest::addColumn<QString>("grain");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("4k") << QStringLiteral("4k") << qint64(4096);
    QTest::newRow("4K") << QStringLiteral("4K") << qint64(4096);
    QTest::newRow("1m") << QStringLiteral("1m") << qint64(1048576);
    QTest::newRow("mib") << QStringLiteral("mib") << qint64(1048576);
    QTest::newRow("512K") << QStringLiteral("512K") << qint64(524288);
    QTest::newRow("2M") << QStringLiteral("2M") << qint64(2097152);
}

void TestOptions::grainSpellings()
{
    QFETCH(QString, grain);
    QFETCH(qint64, bytes);
    Policy policy;
    policy.grainBytes = bytes;
    int exitCode = -1;
    for (const Fixture *f : {&m_classic, &m_modern}) {
        const QStringList problems =
            problemsFor(*f, policy, {QStringLiteral("--grain"), grain}, &exitCode);
        QVERIFY2(problems.isEmpty(),
                 qPrintable(f->name + QStringLiteral(":\n") + problems.join(QLatin1Char('\n'))));
    }
}

// An image reports 512/512; trusting it makes sector 63 merely "sector-aligned".
void TestOptions::trustDriveOnXpImage()
{
    Policy policy;
    policy.trustDrive = true;
    int exitCode = -1;
    const QStringList problems =
        problemsFor(m_xp, policy, {QStringLiteral("--trust-drive")}, &exitCode);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json"),
                                QStringLiteral("--trust-drive"), m_xp.path});
    const QJsonObject p1 = partitionByNumber(r.device(m_xp.path), 1);
    QCOMPARE(p1.value(QStringLiteral("status")).toString(), QStringLiteral("sector-aligned"));
    QCOMPARE(p1.value(QStringLiteral("misalignment_bytes")).toInteger(-1), 0);
    QCOMPARE(exitCode, 0);
}

void TestOptions::exitCodes_data()
{
    QTest::addColumn<qint64>("start");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("GPT partition at 34") << qint64(34) << 1;
    QTest::newRow("GPT partition at 40") << qint64(40) << 0;
    QTest::newRow("GPT partition at 63") << qint64(63) << 1;
    QTest::newRow("GPT partition at 2048") << qint64(2048) << 0;
    QTest::newRow("GPT partition at 2049") << qint64(2049) << 1;
}

void TestOptions::exitCodes()
{
    QFETCH(qint64, start);
    QFETCH(int, exitCode);
    DiskImageBuilder b(m_dir.path());
    const Fixture f = b.gptSingle(start);
    QVERIFY2(f.ok, qPrintable(f.error));
    // The expected code is also derived from sfdisk's numbers, so the table above is checked.
    QCOMPARE(expectedExitCode(SfdiskTable::read(f.path), Policy()), exitCode);
    for (const QStringList &mode : {QStringList{QStringLiteral("--json")}, QStringList()}) {
        const CliResult r =
            runCli(QStringList{QStringLiteral("check")} + mode + QStringList{f.path});
        QVERIFY2(!r.crashed, qPrintable(r.describe()));
        QCOMPARE(r.exitCode, exitCode);
    }
}

void TestOptions::severalTargets()
{
    const CliResult r =
        runCli({QStringLiteral("check"), QStringLiteral("--json"), m_modern.path, m_xp.path});
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    QCOMPARE(r.devices().size(), 2);
    QVERIFY(!r.device(m_modern.path).isEmpty());
    QVERIFY(!r.device(m_xp.path).isEmpty());
    QCOMPARE(r.exitCode, 1); // the XP partition at 63 is misaligned
    const CliResult human = runCli({QStringLiteral("check"), m_modern.path, m_classic.path});
    QCOMPARE(human.exitCode, 1); // the classic GPT has its partition at 34
}

QTEST_GUILESS_MAIN(TestOptions)
#include "tst_options.moc"
