// Bad input: garbage, empty, missing, truncated and unreadable tables, bad options.
// Contract: exit 2, a message for a person on stderr, no crash, stdout empty or valid JSON,
// and the target's bytes untouched.
#include "clirun.h"
#include "diskimagebuilder.h"
#include "filechecksum.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestErrors : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void badTargets_data();
    void badTargets();
    void badTargetAmongGoodOnes();
    void badOptions_data();
    void badOptions();

private:
    QTemporaryDir m_dir;
    QMap<QString, Fixture> m_fixtures;
    Fixture m_good;
};

void TestErrors::initTestCase()
{
    setCliPath(QStringLiteral(PARTWISE_CLI));
    QVERIFY(m_dir.isValid());
    DiskImageBuilder b(m_dir.path());
    const QList<Fixture> all{b.garbage(),      b.emptyFile(),    b.missingPath(),
                             b.truncatedGpt(), b.truncatedMbr(), b.corruptBothGpt()};
    for (const Fixture &f : all) {
        QVERIFY2(f.ok, qPrintable(f.error));
        m_fixtures.insert(f.name, f);
    }
    m_good = b.modernGpt();
    QVERIFY2(m_good.ok, qPrintable(m_good.error));
}

void TestErrors::badTargets_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("json");
    for (const QString &name : m_fixtures.keys()) {
        QTest::newRow(qPrintable(name + QStringLiteral(" --json"))) << name << true;
        QTest::newRow(qPrintable(name)) << name << false;
    }
}

void TestErrors::badTargets()
{
    QFETCH(QString, name);
    QFETCH(bool, json);
    const Fixture f = m_fixtures.value(name);
    const QByteArray before = fileSha256(f.path);
    QStringList args{QStringLiteral("check")};
    if (json)
        args << QStringLiteral("--json");
    const CliResult r = runCli(args << f.path, 60000);
    QVERIFY2(r.started && !r.crashed, qPrintable(r.describe()));
    QVERIFY2(r.exitCode == 2, qPrintable(r.describe()));
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(!err.trimmed().isEmpty(), "no message on stderr");
    QVERIFY2(err.contains(QFileInfo(f.path).fileName()),
             qPrintable(QStringLiteral("stderr does not name the target: ") + err));
    for (const char *crash :
         {"Segmentation", "terminate called", "Assertion", "Aborted", "Fix/Ignore", "Yes/No"})
        QVERIFY2(!err.contains(QLatin1String(crash)), qPrintable(err));
    if (json)
        QVERIFY2(r.out.trimmed().isEmpty() || r.jsonValid,
                 qPrintable(QStringLiteral("stdout is neither empty nor JSON: ") + r.describe()));
    QCOMPARE(fileSha256(f.path), before);
    QVERIFY(QFileInfo::exists(f.path) == !before.isEmpty()); // check never creates files
}

void TestErrors::badTargetAmongGoodOnes()
{
    const Fixture missing = m_fixtures.value(QStringLiteral("does-not-exist"));
    const CliResult r =
        runCli({QStringLiteral("check"), QStringLiteral("--json"), m_good.path, missing.path});
    QVERIFY2(!r.crashed, qPrintable(r.describe()));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.trimmed().isEmpty() || r.jsonValid, qPrintable(r.describe()));
    QVERIFY(!r.err.trimmed().isEmpty());
}

void TestErrors::badOptions_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("--grain bogus")
        << QStringList{QStringLiteral("--grain"), QStringLiteral("bogus")};
    QTest::newRow("--sector-size 1000")
        << QStringList{QStringLiteral("--sector-size"), QStringLiteral("1000")};
    QTest::newRow("--sector-size abc")
        << QStringList{QStringLiteral("--sector-size"), QStringLiteral("abc")};
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")};
}

void TestErrors::badOptions()
{
    QFETCH(QStringList, options);
    const CliResult r =
        runCli(QStringList{QStringLiteral("check")} + options + QStringList{m_good.path});
    QVERIFY2(!r.crashed, qPrintable(r.describe()));
    QVERIFY2(r.exitCode == 2, qPrintable(r.describe()));
    QVERIFY2(!r.err.trimmed().isEmpty(), "no message on stderr");
}

QTEST_GUILESS_MAIN(TestErrors)
#include "tst_errors.moc"
