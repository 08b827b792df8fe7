// The root helper against a hostile local user. pkexec's auth_admin_keep lets any program of a
// user who gave the password once start `partwise-cli serve` as root for minutes, so this suite
// is that program: a user the test creates plants links, FIFOs and races where root works, and
// sends requests in the helper's own protocol, with PKEXEC_UID naming that user as pkexec does.
// Root-only victims (a secret file, an image of root's) must keep their sha256, the secret must
// never come back in an answer, nothing root-owned may appear among the user's files, and the
// helper must answer every line without dying of a signal.
#include "buildsetting.h"
#include "clirun.h"
#include "filebytes.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr char kUser[] = "pwhostile";
constexpr char kSecret[] = "PARTWISE-ROOT-ONLY-SECRET-7d1f";

QJsonObject plan(const QJsonObject &operation)
{
    return QJsonObject{{"operations", QJsonArray{operation}}};
}

QJsonObject newTable()
{
    return plan(QJsonObject{{"op", "new-table"}, {"type", "gpt"}});
}

QStringList pathMethods()
{
    return {QStringLiteral("read-disk"),    QStringLiteral("preview"),
            QStringLiteral("realign-plan"), QStringLiteral("realign"),
            QStringLiteral("apply"),        QStringLiteral("resume"),
            QStringLiteral("probe"),        QStringLiteral("filesystem-minimum")};
}

QString messageOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("error"))
        .toObject()
        .value(QStringLiteral("message"))
        .toString();
}

} // namespace

class TestServeHostile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void servedUserFailsClosed();
    void plantedLinksAndPipesNeverSteerRoot();
    void renameRacesNeverReachRootFiles();
    void numbersAreCheckedBeforeUse();
    void keyFilesAreReadWithTheUsersRights();
    void environmentOfTheUserIsNotRoots();
    void tableBackupsArePrivateAndPasteSafely();
    void labelsNeverReachAShell();

private:
    // Runs a shell command as the hostile user, bounded to 30 s.
    ToolResult asUser(const QString &command) const;
    void verifyVictimsUntouched(const QList<QJsonObject> &answers);
    void verifyNothingOfRootsAmongUsersFiles();

    QTemporaryDir m_dir;
    QString m_home;   // the user's own folder
    QString m_secret; // root-only, holds kSecret
    QString m_victim; // root's image, root-only
    QByteArray m_secretSum, m_victimSum;
    TestUser m_user;
};

void TestServeHostile::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY2(m_user.create(QString::fromLatin1(kUser)), qPrintable(m_user.error()));
    // The test's folder is passable, the user's own inside it, root's victims beside it.
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0711) == 0);
    m_home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(m_home));
    QVERIFY(::chown(QFile::encodeName(m_home).constData(), m_user.uid(), m_user.gid()) == 0);
    QVERIFY(::chmod(QFile::encodeName(m_home).constData(), 0700) == 0);
    const QString rootOnly = m_dir.filePath(QStringLiteral("root-only"));
    QVERIFY(QDir().mkpath(rootOnly));
    QVERIFY(::chmod(QFile::encodeName(rootOnly).constData(), 0700) == 0);
    m_secret = rootOnly + QStringLiteral("/secret.txt");
    QFile secret(m_secret);
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write(QByteArray(kSecret) + "\n");
    secret.close();
    QVERIFY(::chmod(QFile::encodeName(m_secret).constData(), 0600) == 0);
    m_victim = makePracticeImage(rootOnly, QStringLiteral("victim.img"));
    QVERIFY(!m_victim.isEmpty());
    m_secretSum = fileSha256(m_secret);
    m_victimSum = fileSha256(m_victim);
    // The user's own image, made by the user.
    const ToolResult own = asUser(QStringLiteral("truncate -s 64M %1/own.img").arg(m_home));
    QVERIFY2(own.ok(), qPrintable(own.describe()));
}

void TestServeHostile::cleanupTestCase()
{
    m_user.remove();
}

ToolResult TestServeHostile::asUser(const QString &command) const
{
    return m_user.asUser(command, 30000);
}

void TestServeHostile::verifyVictimsUntouched(const QList<QJsonObject> &answers)
{
    QCOMPARE(fileSha256(m_secret), m_secretSum);
    QCOMPARE(fileSha256(m_victim), m_victimSum);
    for (const QJsonObject &answer : answers)
        QVERIFY2(!QJsonDocument(answer).toJson().contains(kSecret), qPrintable(describe(answer)));
}

void TestServeHostile::verifyNothingOfRootsAmongUsersFiles()
{
    QDirIterator it(m_home, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        struct stat st;
        QVERIFY(::lstat(QFile::encodeName(path).constData(), &st) == 0);
        QVERIFY2(st.st_uid == m_user.uid(), qPrintable(path + QStringLiteral(" belongs to root")));
    }
}

void TestServeHostile::servedUserFailsClosed()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    auto serveWith = [this](const QProcessEnvironment &environment, QByteArray *err) {
        QProcess helper;
        helper.setProcessEnvironment(environment);
        helper.start(pwtest::buildSetting("PARTWISE_CLI"), {QStringLiteral("serve")});
        if (!helper.waitForStarted())
            return QByteArray("not started");
        helper.write(QJsonDocument(QJsonObject{{"jsonrpc", "2.0"},
                                               {"id", 1},
                                               {"method", "read-disk"},
                                               {"params", QJsonObject{{"path", m_victim}}}})
                         .toJson(QJsonDocument::Compact) +
                     "\n");
        helper.closeWriteChannel();
        if (!helper.waitForFinished(20000) || helper.exitStatus() != QProcess::NormalExit)
            return QByteArray("did not end by itself");
        *err = helper.readAllStandardError();
        return helper.exitCode() == 2 ? helper.readAllStandardOutput()
                                      : QByteArray("exit status 0");
    };
    const QList<QPair<QString, QString>> cases{
        {QStringLiteral("PKEXEC_UID"), QString()},
        {QStringLiteral("PKEXEC_UID"), QStringLiteral("abc")},
        {QStringLiteral("PKEXEC_UID"), QStringLiteral("-1")},
        {QStringLiteral("PKEXEC_UID"), QStringLiteral("4294967296")},
        {QStringLiteral("PKEXEC_UID"), QStringLiteral("4294967295")},
        {QStringLiteral("PKEXEC_UID"), QStringLiteral(" 1000")},
        {QStringLiteral("SUDO_UID"), QStringLiteral("0x10")}};
    for (const auto &[variable, value] : cases) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(variable, value);
        QByteArray err;
        const QByteArray out = serveWith(environment, &err);
        // Nothing answered: the helper ended before reading a request, and said why.
        QVERIFY2(out.isEmpty(), qPrintable(variable + "=" + value + ": " + out));
        QVERIFY2(err.contains(variable.toLatin1() + " is not a user number"), err.constData());
    }
    // pkexec's word and sudo's must agree: the one naming root never wins.
    QProcessEnvironment both = m_user.pkexecEnvironment();
    both.insert(QStringLiteral("SUDO_UID"), QStringLiteral("0"));
    QByteArray err;
    QVERIFY(serveWith(both, &err).isEmpty());
    QVERIFY2(err.contains("name different users"), err.constData());
    QCOMPARE(fileSha256(m_victim), m_victimSum);
}

void TestServeHostile::plantedLinksAndPipesNeverSteerRoot()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString own = m_home + QStringLiteral("/own.img");
    const QByteArray ownBefore = fileSha256(own);
    // Where root once wrote journals and scratch folders beside an image, and links to root's
    // files and to a loop device in the user's folder, and a FIFO that would block an open().
    LoopDevice loop(m_victim, 0, true);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const ToolResult planted = asUser(
        QStringLiteral(
            "cd %1 && ln -s %2 own.img.partwise-move.realign.new && "
            "ln -s %2 own.img.partwise-move.realign && ln -s /dev/zero own.img.partwise-move && "
            "ln -s %2 .partwise-mkfs-aaaaaa && ln -s %3 victim-link.img && "
            "ln -s %4 loop-link && mkfifo fifo.img && ln -s . folder && "
            "ln -s /dev/shm shm")
            .arg(m_home, m_secret, m_victim, loop.path()));
    QVERIFY2(planted.ok(), qPrintable(planted.describe()));
    const QStringList paths{own,
                            m_home + QStringLiteral("/victim-link.img"),
                            m_home + QStringLiteral("/loop-link"),
                            m_home + QStringLiteral("/fifo.img"),
                            m_home + QStringLiteral("/folder/own.img"),
                            m_home + QStringLiteral("/own.img.partwise-move.realign"),
                            m_victim,
                            m_secret,
                            QStringLiteral("/dev/shm"),
                            QStringLiteral("/proc/self/fd/0")};
    ServeClient helper(m_user.pkexecEnvironment());
    QList<QJsonObject> answers;
    QElapsedTimer clock;
    clock.start();
    for (const QString &method : pathMethods()) {
        for (const QString &path : paths) {
            const QJsonObject answer = helper.call(
                method,
                {{"path", path},
                 {"partition", 1},
                 {"plan",
                  plan(QJsonObject{{"op", "create"}, {"fs", "luks2"}, {"key_file", m_secret}})}},
                20000);
            QVERIFY2(errorCodeOf(answer) == -32001,
                     qPrintable(method + QLatin1Char(' ') + path + QStringLiteral(": ") +
                                describe(answer)));
            answers << answer;
        }
    }
    // Every refusal came at once: nothing opened the FIFO and waited on it.
    QVERIFY2(clock.elapsed() < 30000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(helper.running());
    QVERIFY(resultOf(helper.call(QStringLiteral("version"))).contains(QStringLiteral("protocol")));
    QVERIFY(helper.closeAndWait(20000));
    verifyVictimsUntouched(answers);
    QCOMPARE(fileSha256(own), ownBefore);
    verifyNothingOfRootsAmongUsersFiles();
}

void TestServeHostile::renameRacesNeverReachRootFiles()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // The user swaps, as fast as a shell can, what race.img names: their own image, a link to
    // root's image, a link to root's secret. Bounded: 3,000 rounds, at most 8 s.
    const QString race = m_home + QStringLiteral("/race.img");
    const ToolResult made = asUser(
        QStringLiteral("cd %1 && truncate -s 32M mine.img && ln mine.img race.img").arg(m_home));
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    QProcess swapper;
    swapper.start(
        QStringLiteral("setpriv"),
        m_user.asUserArgs({QStringLiteral("timeout"), QStringLiteral("--kill-after=1"),
                           QStringLiteral("8"), QStringLiteral("sh"), QStringLiteral("-c"),
                           QStringLiteral("cd %1; i=0; while [ $i -lt 3000 ]; do i=$((i+1)); "
                                          "ln -sfn %2 t1; mv -fT t1 race.img; "
                                          "ln -f mine.img t2; mv -fT t2 race.img; ln -sfn %3 t3; "
                                          "mv -fT t3 race.img; done")
                               .arg(m_home, m_victim, m_secret)}));
    QVERIFY(swapper.waitForStarted());
    ServeClient helper(m_user.pkexecEnvironment());
    QList<QJsonObject> answers;
    for (int round = 0; swapper.state() == QProcess::Running && round < 400; ++round) {
        const QString method = pathMethods()[round % pathMethods().size()];
        const QJsonObject answer =
            helper.call(method, {{"path", race}, {"partition", 1}, {"plan", newTable()}}, 20000);
        QVERIFY2(errorCodeOf(answer) != 0,
                 qPrintable(method + QStringLiteral(": ") + describe(answer)));
        answers << answer;
    }
    // Its own bounds end it (killing `timeout` would leave the loop behind it running).
    QVERIFY(swapper.waitForFinished(20000));
    QVERIFY(answers.size() > 20);
    QVERIFY(helper.closeAndWait(20000));
    verifyVictimsUntouched(answers);
    verifyNothingOfRootsAmongUsersFiles();
}

void TestServeHostile::numbersAreCheckedBeforeUse()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // Root's own image, served to root: the numbers alone are under test here.
    const QString image = makePracticeImage(m_dir.path(), QStringLiteral("numbers.img"));
    QVERIFY(!image.isEmpty());
    const QByteArray before = fileSha256(image);
    ServeClient helper;
    const QList<double> sizes{1, 256, 1000, 8192, 16384, 32768, 65536, -512, 4096.5, 1e300};
    for (const double size : sizes) {
        for (const QString &method :
             {QStringLiteral("read-disk"), QStringLiteral("preview"),
              QStringLiteral("realign-plan"), QStringLiteral("realign"), QStringLiteral("apply")}) {
            const QJsonObject answer = helper.call(
                method, {{"path", image}, {"sector_size", size}, {"plan", newTable()}}, 20000);
            QVERIFY2(errorCodeOf(answer) == -32602,
                     qPrintable(QStringLiteral("%1 sector_size %2: %3")
                                    .arg(method)
                                    .arg(size)
                                    .arg(describe(answer))));
        }
    }
    // A size past any disk is refused, not taken as "the rest".
    for (const QJsonValue &size : {QJsonValue(9223372036854775807.0), QJsonValue("8589934591GiB"),
                                   QJsonValue(1e300), QJsonValue(-1)}) {
        const QJsonObject answer = helper.call(
            QStringLiteral("apply"),
            {{"path", image}, {"plan", plan(QJsonObject{{"op", "create"}, {"size", size}})}},
            20000);
        QVERIFY2(errorCodeOf(answer) == -32602, qPrintable(describe(answer)));
    }
    const QJsonObject answer =
        helper.call(QStringLiteral("answer"), {{"question", 1e300}, {"choice", "fix"}});
    QVERIFY2(errorCodeOf(answer) == -32602, qPrintable(describe(answer)));
    QVERIFY(helper.closeAndWait(20000));
    QCOMPARE(fileSha256(image), before);
    // The command line takes the same sizes only.
    const CliResult cli = runCli(
        {QStringLiteral("check"), QStringLiteral("--sector-size"), QStringLiteral("8192"), image});
    QCOMPARE(cli.exitCode, 2);
}

void TestServeHostile::keyFilesAreReadWithTheUsersRights()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString disk = m_dir.filePath(QStringLiteral("luks-disk.img"));
    QVERIFY(makeSparseFile(disk, 64 << 20));
    LoopDevice loop(disk);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const QByteArray before = fileSha256(loop.path());
    const QJsonObject luks{
        {"op", "create"}, {"size", "32MiB"}, {"fs", "luks2"}, {"key_file", m_secret}};
    const QJsonObject steps{
        {"operations", QJsonArray{QJsonObject{{"op", "new-table"}, {"type", "gpt"}}, luks}}};
    ServeClient helper(m_user.pkexecEnvironment());
    const QJsonObject refused =
        helper.call(QStringLiteral("apply"), {{"path", loop.path()}, {"plan", steps}});
    QVERIFY2(errorCodeOf(refused) == -32001 &&
                 messageOf(refused).contains(QStringLiteral("cannot be read by you")),
             qPrintable(describe(refused)));
    QVERIFY(!QJsonDocument(refused).toJson().contains(kSecret));
    QCOMPARE(fileSha256(loop.path()), before);
    // The user's own key file is read, and it is the volume's passphrase.
    const ToolResult key =
        asUser(QStringLiteral("printf 'users own words' > %1/key && chmod 600 %1/key").arg(m_home));
    QVERIFY2(key.ok(), qPrintable(key.describe()));
    QJsonObject ownKey = luks;
    ownKey[QStringLiteral("key_file")] = m_home + QStringLiteral("/key");
    const QJsonObject made = helper.call(
        QStringLiteral("apply"),
        {{"path", loop.path()},
         {"plan",
          QJsonObject{{"operations", QJsonArray{steps["operations"].toArray()[0], ownKey}}}}});
    QVERIFY2(resultOf(made).value(QStringLiteral("ok")).toBool(), qPrintable(describe(made)));
    QVERIFY(helper.closeAndWait(20000));
    QVERIFY(loop.addPartitions());
    const ToolResult test =
        runTool(QStringLiteral("cryptsetup"),
                {QStringLiteral("open"), QStringLiteral("--test-passphrase"),
                 QStringLiteral("--key-file"), QStringLiteral("-"), loop.partitionNode(1)},
                QByteArray("users own words"));
    QVERIFY2(test.ok(), qPrintable(test.describe()));
    verifyVictimsUntouched({refused, made});
}

void TestServeHostile::environmentOfTheUserIsNotRoots()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // The user's PATH leads first to their own "sfdisk", which the table backup runs.
    const ToolResult planted = asUser(
        QStringLiteral(
            "mkdir -p %1/bin && printf '#!/bin/sh\\ntouch %1/ran-as-root\\n' > %1/bin/sfdisk && "
            "chmod 755 %1/bin/sfdisk")
            .arg(m_home));
    QVERIFY2(planted.ok(), qPrintable(planted.describe()));
    const QString disk = m_dir.filePath(QStringLiteral("path-disk.img"));
    QVERIFY(makeSparseFile(disk, 16 << 20));
    LoopDevice loop(disk);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QProcessEnvironment environment = m_user.pkexecEnvironment();
    environment.insert(QStringLiteral("PATH"), m_home + QStringLiteral("/bin:") +
                                                   environment.value(QStringLiteral("PATH")));
    environment.insert(QStringLiteral("PARTWISE_UDEV_RULES_DIR"),
                       m_home + QStringLiteral("/rules"));
    ServeClient helper(environment);
    const QJsonObject answer =
        helper.call(QStringLiteral("apply"), {{"path", loop.path()}, {"plan", newTable()}});
    QVERIFY2(resultOf(answer).value(QStringLiteral("ok")).toBool(), qPrintable(describe(answer)));
    QVERIFY(helper.closeAndWait(20000));
    QVERIFY(!QFile::exists(m_home + QStringLiteral("/ran-as-root")));
    QVERIFY(!QFile::exists(m_home + QStringLiteral("/rules")));
    const ToolResult table = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), loop.path()});
    QVERIFY2(table.out.contains("\"label\": \"gpt\""), qPrintable(table.describe()));
}

void TestServeHostile::tableBackupsArePrivateAndPasteSafely()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // A name made to run a command when pasted unquoted.
    const QString folder = m_dir.filePath(QStringLiteral("paste"));
    QVERIFY(QDir().mkpath(folder));
    const QString image = makePracticeImage(folder, QStringLiteral("a b'$(touch PWNED)'.img"));
    QVERIFY(!image.isEmpty());
    QFile planFile(m_dir.filePath(QStringLiteral("plan.json")));
    QVERIFY(planFile.open(QIODevice::WriteOnly));
    planFile.write(QJsonDocument(newTable()).toJson());
    planFile.close();
    const QString backups = m_dir.filePath(QStringLiteral("backups"));
    const CliResult applied =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                backups, planFile.fileName(), image});
    QVERIFY2(applied.exitCode == 0, qPrintable(applied.describe()));
    const QStringList made = QDir(backups).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(made.size(), 1);
    const QString backup = QDir(backups).filePath(made.first());
    QCOMPARE(QFileInfo(backup).permissions() & 0x0777, QFileDevice::Permissions(0x0700));
    QCOMPARE(QFileInfo(backups).permissions() & 0x0777, QFileDevice::Permissions(0x0700));
    for (const QString &name : QDir(backup).entryList(QDir::Files))
        QCOMPARE(QFileInfo(QDir(backup).filePath(name)).permissions() & 0x0777,
                 QFileDevice::Permissions(0x0600));
    // Pasted into a shell with dd and sfdisk standing in, each command gets the image's name
    // as one word, and nothing else runs.
    QFile restore(QDir(backup).filePath(QStringLiteral("RESTORE.txt")));
    QVERIFY(restore.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(restore.readAll());
    QStringList commands;
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (line.trimmed().startsWith(QLatin1String("dd ")) ||
            line.contains(QLatin1String("sfdisk ")))
            commands << line.mid(line.indexOf(line.contains(QLatin1String("sfdisk "))
                                                  ? QLatin1String("sfdisk ")
                                                  : QLatin1String("dd ")));
    QCOMPARE(commands.size(), 3);
    const QString script =
        QStringLiteral("cd %1 || exit 9\ndd() { for a; do printf '%s\\n' \"$a\"; done; }\n"
                       "sfdisk() { printf '%s\\n' \"$1\"; }\n")
            .arg(folder) +
        commands.join(QLatin1Char('\n'));
    const ToolResult pasted = runTool(QStringLiteral("sh"), {QStringLiteral("-c"), script});
    QVERIFY2(pasted.ok(), qPrintable(pasted.describe()));
    QCOMPARE(pasted.out.count(QByteArray("of=") + QFile::encodeName(image) + "\n"), 2);
    QVERIFY(pasted.out.contains(QFile::encodeName(image) + "\n"));
    QVERIFY(!QFile::exists(QDir(folder).filePath(QStringLiteral("PWNED"))));
}

// xfs_admin is a shell script that evals the label it is given: a label that closes its quote
// ran the user's program as root. Labels and names with quotes, backticks, '$', backslashes,
// control characters or a leading '-' are refused as bad params, before any tool sees them.
void TestServeHostile::labelsNeverReachAShell()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString disk = m_dir.filePath(QStringLiteral("xfs-disk.img"));
    QVERIFY(makeSparseFile(disk, qint64(320) << 20));
    LoopDevice loop(disk);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const ToolResult payload =
        asUser(QStringLiteral("printf '#!/bin/sh\\nid > %1/pwned\\n' > %1/a && chmod 755 %1/a")
                   .arg(m_home));
    QVERIFY2(payload.ok(), qPrintable(payload.describe()));
    ServeClient helper(m_user.pkexecEnvironment());
    const QJsonObject made = helper.call(
        QStringLiteral("apply"),
        {{"path", loop.path()},
         {"plan",
          QJsonObject{{"operations", QJsonArray{QJsonObject{{"op", "new-table"}, {"type", "gpt"}},
                                                QJsonObject{{"op", "create"}, {"fs", "xfs"}}}}}}});
    QVERIFY2(resultOf(made).value(QStringLiteral("ok")).toBool(), qPrintable(describe(made)));
    const QByteArray before = fileSha256(loop.path());
    const QStringList labels{QStringLiteral("'`%1/a`'").arg(m_home), QStringLiteral("$(id)"),
                             QStringLiteral("-h"), QStringLiteral("a\nb"),
                             QStringLiteral("back\\slash")};
    for (const QString &label : labels) {
        for (const char *key : {"label", "name"}) {
            QJsonObject op{{"op", QLatin1String(key) == QLatin1String("label") ? "label" : "name"},
                           {"number", 1}};
            op[QLatin1String(key)] = label;
            const QJsonObject answer =
                helper.call(QStringLiteral("apply"), {{"path", loop.path()}, {"plan", plan(op)}});
            QVERIFY2(errorCodeOf(answer) == -32602,
                     qPrintable(label + QStringLiteral(": ") + describe(answer)));
        }
    }
    QVERIFY(helper.closeAndWait(20000));
    QVERIFY(!QFile::exists(m_home + QStringLiteral("/pwned")));
    QCOMPARE(fileSha256(loop.path()), before);
}

QTEST_GUILESS_MAIN(TestServeHostile)
#include "tst_servehostile.moc"
