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

#include <QElapsedTimer>
#include <QFile>
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
    void costlyKeyDerivationIsRefused();

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

namespace {

// Writes `value` big-endian at `offset` of `node`, as a user who owns the stick can.
bool patchBe32(const QString &node, qint64 offset, quint32 value)
{
    QFile f(node);
    const uchar bytes[4] = {uchar(value >> 24), uchar(value >> 16), uchar(value >> 8),
                            uchar(value)};
    return f.open(QIODevice::ReadWrite) && f.seek(offset) &&
           f.write(reinterpret_cast<const char *>(bytes), 4) == 4 && f.flush();
}

// cryptsetup luksFormat --type TYPE ARGS... of `node`, its passphrase "right words".
bool format(const QString &node, QStringList typeAndArgs)
{
    typeAndArgs.prepend(QStringLiteral("--type"));
    const ToolResult made = runTool(
        QStringLiteral("cryptsetup"),
        QStringList{QStringLiteral("luksFormat"), QStringLiteral("--batch-mode")} + typeAndArgs +
            QStringList{QStringLiteral("--key-file"), QStringLiteral("-"), node},
        QByteArray("right words"));
    if (!made.ok())
        qWarning("%s", qPrintable(made.describe()));
    return made.ok();
}

QString luksDumpLine(const QString &node, const QString &starts)
{
    const QString dump = QString::fromUtf8(
        runTool(QStringLiteral("cryptsetup"), {QStringLiteral("luksDump"), node}).out);
    for (const QString &line : dump.split(QLatin1Char('\n')))
        if (line.trimmed().startsWith(starts))
            return line.simplified();
    return {};
}

} // namespace

// A LUKS header is the stick owner's data, and its key derivation runs in root for every
// passphrase tried: a LUKS1 header whose key slot (or volume key digest) asks for 2^32-1
// PBKDF2 iterations held the helper for about an hour, deaf to its input; so would a LUKS2 slot
// of many Argon2 passes. Refused before any derivation; a header as cryptsetup writes it still
// gets as far as the passphrase.
void TestServeLuks::costlyKeyDerivationIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString node = m_loop->partitionNode(2);
    QVERIFY(format(node, {QStringLiteral("luks1"), QStringLiteral("--pbkdf-force-iterations"),
                          QStringLiteral("1000")}));
    ServeClient helper(m_user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QJsonObject unlock{
        {"path", m_loop->path()}, {"partition", 2}, {"passphrase", "wrong words"}};
    // LUKS1: the volume key digest's iterations at byte 164, key slot 0's at 212.
    const QList<QPair<qint64, QString>> costly{{212, QStringLiteral("Iterations:")},
                                               {164, QStringLiteral("MK iterations:")}};
    for (const auto &[offset, field] : costly) {
        QVERIFY(patchBe32(node, offset, 0xffffffffU));
        QCOMPARE(luksDumpLine(node, field), field + QStringLiteral(" 4294967295"));
        QElapsedTimer clock;
        clock.start();
        const QJsonObject answer = helper.call(QStringLiteral("unlock"), unlock, 20000);
        QVERIFY2(!answer.isEmpty(), qPrintable(field + QStringLiteral(" 2^32-1: no answer")));
        qInfo("%s 2^32-1: answered after %lld ms", qPrintable(field), clock.elapsed());
        QCOMPARE(errorCodeOf(answer), -32001);
        QVERIFY2(describe(answer).contains(QStringLiteral("key derivation")),
                 qPrintable(describe(answer)));
        QVERIFY(patchBe32(node, offset, 1000));
    }
    // LUKS2 keeps its costs in JSON: an Argon2 slot of 100 passes (over 32 KiB, made at once).
    QVERIFY(format(node,
                   {QStringLiteral("luks2"), QStringLiteral("--pbkdf"), QStringLiteral("argon2id"),
                    QStringLiteral("--pbkdf-memory"), QStringLiteral("32"),
                    QStringLiteral("--pbkdf-force-iterations"), QStringLiteral("100")}));
    QCOMPARE(luksDumpLine(node, QStringLiteral("Time cost:")), QStringLiteral("Time cost: 100"));
    const QJsonObject argon = helper.call(QStringLiteral("unlock"), unlock, 20000);
    QVERIFY2(describe(argon).contains(QStringLiteral("key derivation")),
             qPrintable(describe(argon)));
    // As cryptsetup makes it (cheap for the test): tried, not refused for its cost.
    QVERIFY(
        format(node, {QStringLiteral("luks2"), QStringLiteral("--pbkdf"), QStringLiteral("pbkdf2"),
                      QStringLiteral("--pbkdf-force-iterations"), QStringLiteral("1000")}));
    const QJsonObject wrong = helper.call(QStringLiteral("unlock"), unlock, 60000);
    QCOMPARE(errorCodeOf(wrong), -32001);
    QVERIFY2(!describe(wrong).contains(QStringLiteral("key derivation")),
             qPrintable(describe(wrong)));
    QVERIFY(helper.closeAndWait(20000));
}

QTEST_GUILESS_MAIN(TestServeLuks)
#include "tst_serveluks.moc"
