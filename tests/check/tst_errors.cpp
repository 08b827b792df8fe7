// Bad input: garbage, empty, missing, truncated and unreadable tables, bad options.
// Contract: exit 2, a message for a person on stderr, no crash, stdout empty or valid JSON,
// and the target's bytes untouched.
#include "buildsetting.h"
#include "clirun.h"
#include "diskimagebuilder.h"
#include "filechecksum.h"
#include "toolrun.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

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
    void noDiskReadableIsNotAllClear();
    void helpNamesTheCommand();

private:
    QTemporaryDir m_dir;
    QMap<QString, Fixture> m_fixtures;
    Fixture m_good;
};

void TestErrors::initTestCase()
{
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
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

// `check` with no target, as a user who may open no disk: every disk is refused, so nothing was
// checked, and the exit status must not say "nothing misaligned" (0).
void TestErrors::noDiskReadableIsNotAllClear()
{
    if (::geteuid() != 0)
        QSKIP("needs root to run the command as another user (nobody)");
    const ToolResult r = runTool(QStringLiteral("setpriv"),
                                 {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                  QStringLiteral("--clear-groups"), cliPath(),
                                  QStringLiteral("check"), QStringLiteral("--json")});
    QVERIFY2(r.started && !r.crashed, qPrintable(r.describe()));
    QVERIFY2(r.exitCode == 2, qPrintable(r.describe()));
    const QJsonObject report = QJsonDocument::fromJson(r.out).object();
    QVERIFY2(report.value(QStringLiteral("devices")).toArray().isEmpty(), r.out.constData());
    const ToolResult text =
        runTool(QStringLiteral("setpriv"),
                {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                 QStringLiteral("--clear-groups"), cliPath(), QStringLiteral("check")});
    QCOMPARE(text.exitCode, 2);
    QVERIFY2(text.err.contains("nothing was checked") || text.err.contains("No disks found"),
             text.err.constData());
}

// Each command's --help starts with what a person types, not the program file's path.
void TestErrors::helpNamesTheCommand()
{
    for (const QString &command : {QStringLiteral("check"), QStringLiteral("realign"),
                                   QStringLiteral("apply"), QStringLiteral("resume")}) {
        const CliResult r = runCli({command, QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("Usage: partwise-cli " + command.toLatin1() + " [options]"),
                 r.out.left(120).constData());
    }
}

QTEST_GUILESS_MAIN(TestErrors)
#include "tst_errors.moc"
