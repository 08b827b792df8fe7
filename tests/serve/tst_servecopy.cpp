// copy-plan, copy and create-image against a hostile local user (a user the test creates), as
// tst_servehostile.cpp does for the other methods: the root helper started for that user
// (PKEXEC_UID, as pkexec names them) and the user's own helper are asked to copy to and from
// files the user has no rights to, through links planted in the user's folder, and to take a
// journal or backup folder of the user's choosing. Every such request is refused, root's files
// keep their sha256 and its secret never comes back. A copy between the user's own images works
// through the user's helper, so the refusals are the guard's, not a broken method.
#include "buildsetting.h"
#include "clirun.h"
#include "device/diskwritelock.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "ops/copyjournal.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr char kUser[] = "pwcopyhostile";
constexpr char kSecret[] = "PARTWISE-ROOT-ONLY-COPY-SECRET-41c9";
constexpr int kRefused = -32001;
constexpr int kInvalidParams = -32602;

} // namespace

class TestServeCopy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void rootHelperRefusesWhatTheUserMayNotTouch();
    void usersHelperHasOnlyTheUsersRights();
    void plantedJournalBesideRootsImageIsNotResumed();
    void plantedScratchLinkIsNotFollowed();
    void aCopyWaitsForTheTargetsOtherJob();

private:
    void verifyVictimsUntouched(const QList<QJsonObject> &answers);

    QTemporaryDir m_dir;
    QString m_home, m_secret, m_victim, m_own, m_blank;
    QByteArray m_secretSum, m_victimSum;
    TestUser m_user;
};

void TestServeCopy::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY2(m_user.create(QString::fromLatin1(kUser)), qPrintable(m_user.error()));
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0711) == 0);
    // Root's victims, in a folder only root may enter.
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
    // The user's own folder: a practice disk, a blank image, and links planted at root's files.
    m_home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(m_home));
    m_own = makePracticeImage(m_home, QStringLiteral("own.img"));
    QVERIFY(!m_own.isEmpty());
    m_blank = QDir(m_home).filePath(QStringLiteral("blank.img"));
    QVERIFY(QFile::link(m_victim, QDir(m_home).filePath(QStringLiteral("to-victim.img"))));
    QVERIFY(QFile::link(m_secret, QDir(m_home).filePath(QStringLiteral("to-secret.img"))));
    const ToolResult own =
        runTool(QStringLiteral("chown"),
                {QStringLiteral("-hR"), QStringLiteral("%1:%2").arg(m_user.uid()).arg(m_user.gid()),
                 m_home});
    QVERIFY2(own.ok(), qPrintable(own.describe()));
    QVERIFY(::chmod(QFile::encodeName(m_home).constData(), 0700) == 0);
    const ToolResult blank = m_user.asUser(QStringLiteral("truncate -s 256M %1").arg(m_blank));
    QVERIFY2(blank.ok(), qPrintable(blank.describe()));
}

void TestServeCopy::cleanupTestCase()
{
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    m_user.remove();
}

void TestServeCopy::verifyVictimsUntouched(const QList<QJsonObject> &answers)
{
    QCOMPARE(fileSha256(m_secret), m_secretSum);
    QCOMPARE(fileSha256(m_victim), m_victimSum);
    for (const QJsonObject &answer : answers)
        QVERIFY2(!QJsonDocument(answer).toJson().contains(kSecret), qPrintable(describe(answer)));
}

void TestServeCopy::rootHelperRefusesWhatTheUserMayNotTouch()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    ServeClient helper(m_user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QString link = QDir(m_home).filePath(QStringLiteral("to-victim.img"));
    const QList<QPair<QString, QString>> pairs{
        {m_own, m_victim}, // root's image as the target
        {m_victim, m_own}, // root's image as the source
        {m_own, link},     // through a link of the user's
        {m_secret, m_own}, // a root-only file read as a disk
        {m_own, m_blank}}; // even the user's own files: root reads no user's file
    QList<QJsonObject> answers;
    for (const QString &method : {QStringLiteral("copy-plan"), QStringLiteral("copy")}) {
        for (const auto &[source, target] : pairs) {
            const QJsonObject answer =
                helper.call(method, {{"source", source}, {"target", target}});
            answers << answer;
            QVERIFY2(errorCodeOf(answer) == kRefused, qPrintable(describe(answer)));
        }
        // Where the journal and the table backup go is the helper's own choice.
        for (const char *key : {"journal", "backup_dir"}) {
            const QJsonObject answer =
                helper.call(method, {{"source", m_own}, {"target", m_blank}, {key, m_victim}});
            answers << answer;
            QVERIFY2(errorCodeOf(answer) == kInvalidParams, qPrintable(describe(answer)));
        }
    }
    // Root makes no file a user names.
    const QString planted = QDir(m_home).filePath(QStringLiteral("made-by-root.img"));
    const QJsonObject create =
        helper.call(QStringLiteral("create-image"), {{"path", planted}, {"size", 1 << 24}});
    answers << create;
    QVERIFY2(errorCodeOf(create) == kRefused, qPrintable(describe(create)));
    QVERIFY(!QFile::exists(planted));
    QVERIFY(helper.closeAndWait());
    verifyVictimsUntouched(answers);
}

void TestServeCopy::usersHelperHasOnlyTheUsersRights()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // The user's own helper, as the window starts it: partwise-cli serve with the user's rights.
    const QString wrapper = m_dir.filePath(QStringLiteral("serve-as-user"));
    QFile script(wrapper);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\nexec setpriv --reuid=%1 --regid=%2 --clear-groups "
                                "'%3' \"$@\"\n")
                     .arg(m_user.uid())
                     .arg(m_user.gid())
                     .arg(pwtest::buildSetting("PARTWISE_CLI"))
                     .toLocal8Bit());
    script.close();
    QVERIFY(::chmod(QFile::encodeName(wrapper).constData(), 0755) == 0);
    setCliPath(wrapper);
    auto restore = qScopeGuard([] { setCliPath(pwtest::buildSetting("PARTWISE_CLI")); });
    ServeClient helper;
    QVERIFY(helper.started());
    QList<QJsonObject> answers;
    const QString link = QDir(m_home).filePath(QStringLiteral("to-victim.img"));
    for (const QString &method : {QStringLiteral("copy-plan"), QStringLiteral("copy")}) {
        for (const auto &[source, target] :
             QList<QPair<QString, QString>>{{m_own, m_victim}, {m_victim, m_own}, {m_own, link}}) {
            const QJsonObject answer =
                helper.call(method, {{"source", source}, {"target", target}});
            answers << answer;
            QVERIFY2(errorCodeOf(answer) != 0, qPrintable(describe(answer)));
        }
    }
    // create-image never replaces a file, nor follows a link planted in its place.
    for (const QString &path :
         {link, QDir(m_home).filePath(QStringLiteral("to-secret.img")), m_victim, m_blank}) {
        const QJsonObject answer =
            helper.call(QStringLiteral("create-image"), {{"path", path}, {"size", 1 << 24}});
        answers << answer;
        QVERIFY2(errorCodeOf(answer) != 0, qPrintable(describe(answer)));
    }
    QCOMPARE(QFileInfo(m_blank).size(), 256LL << 20);
    // What the user may do, it does: a plan between the user's own images.
    const QJsonObject plan =
        helper.call(QStringLiteral("copy-plan"), {{"source", m_own}, {"target", m_blank}});
    QVERIFY2(errorCodeOf(plan) == 0, qPrintable(describe(plan)));
    const QJsonObject planObject = resultOf(plan).value(QStringLiteral("plan")).toObject();
    QVERIFY(planObject.value(QStringLiteral("refused")).toArray().isEmpty());
    QVERIFY(helper.closeAndWait());
    verifyVictimsUntouched(answers);
}

// Root's own image in a folder every user may write to (/tmp): the copy journal's name beside it
// is free for the user to take. A journal the user planted there (a valid one, naming a root-only
// image as the source and a folder of root's as scratch, which a finished copy removes), or a
// FIFO in its place, is not resumed by root: root's image and folder stay as they were, nothing
// of the source comes back, and the helper answers instead of blocking on the FIFO.
void TestServeCopy::plantedJournalBesideRootsImageIsNotResumed()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString shared = m_dir.filePath(QStringLiteral("shared"));
    QVERIFY(QDir().mkpath(shared));
    QVERIFY(::chmod(QFile::encodeName(shared).constData(), 01777) == 0);
    const QString image = makePracticeImage(shared, QStringLiteral("root.img"));
    const QString second = makePracticeImage(shared, QStringLiteral("root-fifo.img"));
    QVERIFY(!image.isEmpty() && !second.isEmpty());
    const QString rootFolder = m_dir.filePath(QStringLiteral("root-folder"));
    QVERIFY(QDir().mkpath(rootFolder));
    QFile kept(rootFolder + QStringLiteral("/kept"));
    QVERIFY(kept.open(QIODevice::WriteOnly) && kept.write("kept\n") == 5);
    kept.close();
    const QByteArray imageSum = fileSha256(image);

    partwise::CopyJournal journal;
    journal.source = m_victim;
    journal.target = image;
    journal.scratchFolder = rootFolder;
    journal.step = partwise::CopyJournal::Step::Copying;
    journal.plan.source = m_victim;
    journal.plan.target = image;
    journal.plan.targetSizeBytes = QFileInfo(image).size();
    journal.plan.sourceTable = journal.plan.targetTable = QStringLiteral("gpt");
    partwise::CopyPartitionPlan part;
    part.sourceNumber = part.targetNumber = 1;
    part.oldStart = 0;
    part.oldEnd = 2047; // the victim's first MiB
    part.newStart = 2048;
    part.newEnd = 4095;
    part.bytesToCopy = 1 << 20;
    journal.plan.partitions << part;
    journal.chunksDone << 0;
    journal.chunkSignatures << QString();
    journal.verified << false;
    journal.fixed << false;
    const QString planted = partwise::copyJournalPath(image);
    QVERIFY(planted.startsWith(shared));
    QString error;
    QVERIFY2(journal.save(planted, &error), qPrintable(error));
    QVERIFY(::lchown(QFile::encodeName(planted).constData(), m_user.uid(), m_user.gid()) == 0);
    const ToolResult fifo =
        m_user.asUser(QStringLiteral("mkfifo '%1'").arg(partwise::copyJournalPath(second)));
    QVERIFY2(fifo.ok(), qPrintable(fifo.describe()));

    ServeClient helper; // root working for root: no PKEXEC_UID
    QVERIFY(helper.started());
    QList<QJsonObject> answers;
    const QJsonObject resumed = helper.call(QStringLiteral("resume"), {{"path", image}});
    answers << resumed;
    QVERIFY2(errorCodeOf(resumed) != 0, qPrintable(describe(resumed)));
    QVERIFY2(describe(resumed).contains(QStringLiteral("another user")),
             qPrintable(describe(resumed)));
    const QJsonObject blocked = helper.call(QStringLiteral("resume"), {{"path", second}}, 20000);
    answers << blocked;
    QVERIFY2(!blocked.isEmpty(), "the helper blocked on a FIFO planted as the copy journal");
    QVERIFY2(errorCodeOf(blocked) != 0, qPrintable(describe(blocked)));
    QVERIFY(helper.closeAndWait());
    QCOMPARE(fileSha256(image), imageSum);
    QVERIFY(QFile::exists(rootFolder + QStringLiteral("/kept")));
    verifyVictimsUntouched(answers);
}

// A copy that shrinks a filesystem keeps the shrunk copy in a scratch folder beside the journal,
// so beside root's image in /tmp its name is free for the user too. A link the user planted there
// to a folder of root's made root write the source's filesystem into it and then empty it. The
// copy is refused before anything is written, and root's folder keeps its file.
void TestServeCopy::plantedScratchLinkIsNotFollowed()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString shared = m_dir.filePath(QStringLiteral("shared-scratch"));
    QVERIFY(QDir().mkpath(shared));
    QVERIFY(::chmod(QFile::encodeName(shared).constData(), 01777) == 0);
    const QString source = m_dir.filePath(QStringLiteral("root-source.img"));
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("modern"), source,
                                   QStringLiteral("--size"), QStringLiteral("64M")});
    QCOMPARE(made.exitCode, 0);
    const QString target = shared + QStringLiteral("/small.img"); // too small: ext4 shrinks
    QFile small(target);
    QVERIFY(small.open(QIODevice::WriteOnly) && small.resize(40 << 20));
    small.close();
    const QByteArray targetSum = fileSha256(target);
    const QString rootFolder = m_dir.filePath(QStringLiteral("root-folder-2"));
    QVERIFY(QDir().mkpath(rootFolder));
    QFile kept(rootFolder + QStringLiteral("/kept"));
    QVERIFY(kept.open(QIODevice::WriteOnly) && kept.write("kept\n") == 5);
    kept.close();
    const QString scratch = partwise::copyJournalPath(target) + QStringLiteral(".scratch");
    const ToolResult link =
        m_user.asUser(QStringLiteral("ln -s '%1' '%2'").arg(rootFolder, scratch));
    QVERIFY2(link.ok(), qPrintable(link.describe()));

    ServeClient helper; // root working for root: no PKEXEC_UID
    QVERIFY(helper.started());
    const QJsonObject plan =
        helper.call(QStringLiteral("copy-plan"), {{"source", source}, {"target", target}});
    QVERIFY2(describe(plan).contains(QStringLiteral("\"shrink\"")), qPrintable(describe(plan)));
    const QJsonObject copied =
        helper.call(QStringLiteral("copy"), {{"source", source}, {"target", target}});
    QVERIFY2(errorCodeOf(copied) != 0, qPrintable(describe(copied)));
    QVERIFY(helper.closeAndWait());
    QVERIFY(QFile::exists(rootFolder + QStringLiteral("/kept")));
    QCOMPARE(QDir(rootFolder).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
             QStringList{QStringLiteral("kept")});
    QCOMPARE(fileSha256(target), targetSum);
    QVERIFY(!QFile::exists(partwise::copyJournalPath(target))); // nothing left to resume
}

// One write job per disk: while another job (an Apply, a realignment, another helper's copy or
// resume) holds the target's lock, a copy or resume onto it writes nothing. A user starting a
// second helper could otherwise run a copy into a disk an Apply is writing.
void TestServeCopy::aCopyWaitsForTheTargetsOtherJob()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString source = m_dir.filePath(QStringLiteral("locked-source.img"));
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("modern"), source,
                                   QStringLiteral("--size"), QStringLiteral("64M")});
    QCOMPARE(made.exitCode, 0);
    const QString target = m_dir.filePath(QStringLiteral("locked-target.img"));
    QFile file(target);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(128 << 20));
    file.close();
    const QByteArray targetSum = fileSha256(target);
    const partwise::DiskWriteLock otherJob(target);
    QVERIFY2(otherJob.ok(), qPrintable(otherJob.error()));
    ServeClient helper; // root working for root: no PKEXEC_UID
    QVERIFY(helper.started());
    for (const QString &method : {QStringLiteral("copy"), QStringLiteral("resume")}) {
        const QJsonObject answer =
            method == QLatin1String("copy")
                ? helper.call(method, {{"source", source}, {"target", target}})
                : helper.call(method, {{"path", target}});
        QVERIFY2(errorCodeOf(answer) != 0, qPrintable(describe(answer)));
        QVERIFY2(describe(answer).contains(QStringLiteral("holds the disk's lock")),
                 qPrintable(describe(answer)));
    }
    QVERIFY(helper.closeAndWait());
    QCOMPARE(fileSha256(target), targetSum);
}

QTEST_MAIN(TestServeCopy)
#include "tst_servecopy.moc"
