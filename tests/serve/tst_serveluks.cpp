// The root helper's unlock and lock against a hostile local user (PKEXEC_UID names a user the
// test creates), on this machine, which has no device-mapper: what is checked before any
// mapping is made. Every malformed request is refused as bad params (a passphrase of the wrong
// type, empty or longer than the limit, a lock that carries one, partition numbers out of
// range), a partition without LUKS is refused naming it, a lock where nothing is unlocked is
// refused, and the passphrase sent appears in no answer and nothing the helper writes to its
// error output. Opening and closing real mappings is tested in the guest
// (tests/guest/tst_guestdesktop, luksUnlockedAndLockedAgain), judged by cryptsetup and dmsetup.
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestServeLuks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void badRequestsAreRefusedWithoutEchoingThePassphrase();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<LoopDevice> m_loop;
    TestUser m_user;
};

void TestServeLuks::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(buildSetting("PARTWISE_CLI"));
    QVERIFY2(m_user.create(QStringLiteral("pwluks"), QStringLiteral("/bin/sh"),
                           m_dir.filePath(QStringLiteral("home"))),
             qPrintable(m_user.error()));
    const QString image = m_dir.filePath(QStringLiteral("disk.img"));
    QVERIFY(
        runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("40M"), image})
            .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nstart=2048, size=20480\nstart=22528, size=20480\n")
                .ok());
    m_loop = std::make_unique<LoopDevice>(image);
    QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
    QVERIFY(m_loop->addPartitions());
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), m_loop->partitionNode(1)})
                .ok());
}

void TestServeLuks::cleanupTestCase()
{
    m_loop.reset();
    m_user.remove();
}

void TestServeLuks::badRequestsAreRefusedWithoutEchoingThePassphrase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    ServeClient helper(m_user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QString disk = m_loop->path();
    const QString secret = QStringLiteral("pw-Hostile-Secret-7781");
    const QString tooLong = secret + QString(4096, QLatin1Char('x'));
    const QList<QPair<QString, QJsonObject>> bad{
        {"unlock", {{"path", disk}, {"partition", 1}}},
        {"unlock", {{"path", disk}, {"partition", 1}, {"passphrase", ""}}},
        {"unlock", {{"path", disk}, {"partition", 1}, {"passphrase", 42}}},
        {"unlock", {{"path", disk}, {"partition", 1}, {"passphrase", QJsonArray{secret}}}},
        {"unlock", {{"path", disk}, {"partition", 1}, {"passphrase", tooLong}}},
        // 2,000 three-byte characters: within the limit as characters, past it as bytes.
        {"unlock",
         {{"path", disk}, {"partition", 1}, {"passphrase", QString(2000, QChar(0x20AC))}}},
        {"unlock", {{"path", disk}, {"partition", 0}, {"passphrase", secret}}},
        {"unlock", {{"path", disk}, {"partition", 257}, {"passphrase", secret}}},
        {"unlock", {{"path", disk}, {"partition", 1.5}, {"passphrase", secret}}},
        {"unlock", {{"path", disk}, {"partition", "1"}, {"passphrase", secret}}},
        {"lock", {{"path", disk}, {"partition", 1}, {"passphrase", secret}}},
        {"lock", {{"path", disk}}},
    };
    for (const auto &[method, params] : bad) {
        const QJsonObject answer = helper.call(method, params);
        QVERIFY2(errorCodeOf(answer) == -32602, qPrintable(method + ": " + describe(answer)));
        QVERIFY(!QJsonDocument(answer).toJson().contains(secret.toUtf8()));
    }
    // Well formed, and refused for what is there: no LUKS in partition 1 (ext4), none in 2,
    // no partition 9, nothing unlocked to lock; a partition node is no disk.
    const QList<QPair<QString, QJsonObject>> refused{
        {"unlock", {{"path", disk}, {"partition", 1}, {"passphrase", secret}}},
        {"unlock", {{"path", disk}, {"partition", 2}, {"passphrase", secret}}},
        {"unlock", {{"path", disk}, {"partition", 9}, {"passphrase", secret}}},
        {"unlock", {{"path", m_loop->partitionNode(1)}, {"partition", 1}, {"passphrase", secret}}},
        {"lock", {{"path", disk}, {"partition", 1}}},
    };
    for (const auto &[method, params] : refused) {
        const QJsonObject answer = helper.call(method, params);
        QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(method + ": " + describe(answer)));
        QVERIFY(!QJsonDocument(answer).toJson().contains(secret.toUtf8()));
    }
    const QJsonObject noLuks =
        helper.call("unlock", {{"path", disk}, {"partition", 1}, {"passphrase", secret}});
    QVERIFY2(describe(noLuks).contains(m_loop->partitionNode(1)), qPrintable(describe(noLuks)));
    QVERIFY(helper.closeAndWait());
    QVERIFY(!helper.standardError().contains(secret.toUtf8()));
    for (const QJsonObject &line : helper.notifications())
        QVERIFY(!QJsonDocument(line).toJson().contains(secret.toUtf8()));
    // Nothing was mapped, and partition 1 is as mkfs left it.
    QCOMPARE(QString::fromUtf8(
                 runTool(QStringLiteral("blkid"),
                         {QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                          QStringLiteral("TYPE"), m_loop->partitionNode(1)})
                     .out.trimmed()),
             QStringLiteral("ext4"));
}

QTEST_GUILESS_MAIN(TestServeLuks)
#include "tst_serveluks.moc"
