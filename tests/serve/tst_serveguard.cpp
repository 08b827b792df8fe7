// What `partwise-cli serve` agrees to touch (cli/servetargetguard.h): a thousand hostile or
// malformed lines, each answered with an error while the helper stays up and writes nothing;
// images of another user; and a helper without root, which leaves files to the kernel.
#include "buildsetting.h"
#include "cli/servetargetguard.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "serveclient.h"
#include "sfdisktable.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace partwise;
using namespace pwtest;

class TestServeGuard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void hostileLines();
    void rootTakesNoImageOfAUser();
    void aUserHelperLeavesFilesToTheKernel();
    void pasteSourcePassesTheGuard();
    void aThousandPastesOfOnePartitionArePreviewedPromptly();
    void pasteBetweenTwoLoopDevices();

private:
    QProcessEnvironment helperForOwnerOf(const QString &image);

    QTemporaryDir m_dir;
};

void TestServeGuard::initTestCase()
{
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
}

void TestServeGuard::hostileLines()
{
    const QString image = makePracticeImage(m_dir.path(), QStringLiteral("hostile.img"));
    QVERIFY(!image.isEmpty());
    const QString link = m_dir.filePath(QStringLiteral("link.img"));
    QVERIFY(QFile::link(image, link));
    const QString shadowLink = m_dir.filePath(QStringLiteral("shadow.img"));
    QVERIFY(QFile::link(QStringLiteral("/etc/shadow"), shadowLink));
    QStringList paths{QStringLiteral("/etc/shadow"),
                      QStringLiteral("/etc/passwd"),
                      QStringLiteral("hostile.img"),
                      m_dir.path() + QStringLiteral("/../etc/shadow"),
                      m_dir.path() + QStringLiteral("//hostile.img"),
                      link,
                      shadowLink,
                      QStringLiteral("/dev/null"),
                      QStringLiteral("/dev/zero"),
                      m_dir.path(),
                      m_dir.filePath(QStringLiteral("missing.img")),
                      QStringLiteral("/proc/self/mem"),
                      QString(5000, QLatin1Char('a')).prepend(QLatin1Char('/')),
                      QString(),
                      image + QChar(0) + QStringLiteral("x")};
    QString foreign;
    if (::geteuid() == 0) { // a file of another user, as only root can make one
        foreign = m_dir.filePath(QStringLiteral("foreign.img"));
        QVERIFY(QFile::copy(image, foreign));
        QVERIFY(::chown(QFile::encodeName(foreign).constData(), 65534, 65534) == 0);
        paths << foreign;
    }
    const QByteArray imageBefore = fileSha256(image);
    const QByteArray foreignBefore = foreign.isEmpty() ? QByteArray() : fileSha256(foreign);
    const QStringList methods{QStringLiteral("read-disk"),    QStringLiteral("apply"),
                              QStringLiteral("realign"),      QStringLiteral("resume"),
                              QStringLiteral("realign-plan"), QStringLiteral("preview"),
                              QStringLiteral("probe")};
    const QJsonObject plan{
        {"operations", QJsonArray{QJsonObject{{"op", "new-table"}, {"type", "gpt"}}}}};

    ServeClient client;
    QRandomGenerator random(1234);
    QList<int> ids;
    int unreadable = 0;
    for (int n = 0; n < 1000; ++n) {
        const int id = 100000 + n;
        QJsonObject request{{"jsonrpc", "2.0"}, {"id", id}};
        const QString method = methods[n % methods.size()];
        switch (n % 10) {
        case 0: { // bytes, no newline inside: unreadable
            QByteArray junk(1 + random.bounded(300), Qt::Uninitialized);
            for (char &c : junk)
                c = char(random.bounded(256));
            junk.replace('\n', ' ');
            junk.prepend('#'); // never valid JSON
            client.sendRaw(junk);
            ++unreadable;
            continue;
        }
        case 1: // cut short
            client.sendRaw(
                QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}})
                    .toJson(QJsonDocument::Compact)
                    .chopped(1 + random.bounded(10)));
            ++unreadable;
            continue;
        case 2: // wrong types
            request[QStringLiteral("method")] = n % 20 < 10 ? QJsonValue(42) : QJsonValue(method);
            request[QStringLiteral("params")] = QJsonArray{1, 2};
            break;
        case 3: // absurd numbers on a real image
            request[QStringLiteral("method")] = method;
            request[QStringLiteral("params")] = QJsonObject{{"path", image},
                                                            {"grain", 1e308},
                                                            {"sector_size", -1},
                                                            {"partitions", QJsonArray{1e20}},
                                                            {"plan", plan}};
            break;
        case 4: // wrong types of parameters on a real image
            request[QStringLiteral("method")] = method;
            request[QStringLiteral("params")] = QJsonObject{{"path", image},
                                                            {"grain", "big"},
                                                            {"all", "yes"},
                                                            {"partitions", "1"},
                                                            {"plan", 7}};
            if (method == QLatin1String("resume") || method == QLatin1String("probe"))
                request[QStringLiteral("params")] = QJsonObject{{"path", 12}};
            break;
        case 5:
            request[QStringLiteral("method")] = QStringLiteral("format-everything");
            break;
        case 6:
            request[QStringLiteral("jsonrpc")] = QStringLiteral("1.0");
            request[QStringLiteral("method")] = method;
            break;
        default: // paths that are not plainly a disk of this user
            request[QStringLiteral("method")] = method;
            request[QStringLiteral("params")] =
                QJsonObject{{"path", paths[n % paths.size()]}, {"plan", plan}};
            break;
        }
        client.sendRaw(QJsonDocument(request).toJson(QJsonDocument::Compact));
        ids << id;
    }
    // A line far over the limit.
    client.sendRaw(QByteArray(3 << 20, 'x'));
    ++unreadable;
    for (const int id : std::as_const(ids)) {
        const QJsonObject answer = client.answer(id, 60000);
        QVERIFY2(answer.contains(QStringLiteral("error")),
                 qPrintable(QStringLiteral("request %1: %2").arg(id).arg(describe(answer))));
        QVERIFY(errorCodeOf(answer) != 0);
    }
    const QJsonObject alive = client.call(QStringLiteral("version"));
    QVERIFY2(resultOf(alive).contains(QStringLiteral("protocol")), qPrintable(describe(alive)));
    QCOMPARE(client.nullIdAnswers().size(), unreadable);
    QVERIFY(client.running());
    QCOMPARE(fileSha256(image), imageBefore);
    if (!foreign.isEmpty())
        QCOMPARE(fileSha256(foreign), foreignBefore);
    QVERIFY(!QFile::exists(image + QStringLiteral(".partwise-move.realign")));
}

void TestServeGuard::rootTakesNoImageOfAUser()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // the owner rule guards a helper that runs as root
    const QString image = makePracticeImage(m_dir.path(), QStringLiteral("owned.img"));
    QVERIFY(!image.isEmpty());
    // Started by pkexec for a user, root takes no file of theirs: images belong to a helper
    // that runs as the user.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("PKEXEC_UID"), QString::number(::getuid() + 4242));
    ServeClient helper(environment);
    const QJsonObject refused = helper.call(QStringLiteral("read-disk"), {{"path", image}});
    QCOMPARE(errorCodeOf(refused), -32001);
    QVERIFY(refused.value(QStringLiteral("error"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .contains(QStringLiteral("works on disks in /dev only")));
    // Root working for root reads root's own image.
    environment.insert(QStringLiteral("PKEXEC_UID"), QString::number(::getuid()));
    ServeClient owner(environment);
    QVERIFY(resultOf(owner.call(QStringLiteral("read-disk"), {{"path", image}}))
                .contains(QStringLiteral("partitions")));
}

void TestServeGuard::aUserHelperLeavesFilesToTheKernel()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to give a file to another user
    // An image reached through a link, one of another user's, and a folder.
    const QString image = m_dir.filePath(QStringLiteral("linked.img"));
    QFile file(image);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(1 << 20));
    file.close();
    const QString link = m_dir.filePath(QStringLiteral("link-to-linked.img"));
    QVERIFY(QFile::link(image, link));
    const QString theirs = m_dir.filePath(QStringLiteral("theirs.img"));
    QVERIFY(QFile::copy(image, theirs));
    QVERIFY(::chown(QFile::encodeName(theirs).constData(), 65534, 65534) == 0);
    QString why;
    // As root, for this user: the link and the other user's file are refused.
    const ServeTargetGuard root(::getuid(), true);
    QVERIFY(!root.admits(link, &why) && why.contains(QStringLiteral("symbolic link")));
    QVERIFY(!root.admits(theirs, &why) && why.contains(QStringLiteral("another user")));
    // With only a user's rights, opening is the kernel's to allow: both are taken, and the
    // folder is still refused, as is a path that is not plain.
    const ServeTargetGuard user(::getuid(), false);
    QVERIFY2(user.admits(link, &why), qPrintable(why));
    QVERIFY2(user.admits(theirs, &why), qPrintable(why));
    QVERIFY(!user.admits(m_dir.path(), &why) && why.contains(QStringLiteral("neither")));
    QVERIFY(!user.admits(m_dir.path() + QStringLiteral("/../x.img"), &why));
}

// A paste reads its source: root working for a user takes no image of theirs as a source either,
// in a preview or an Apply onto a disk it would otherwise write; nothing is written.
void TestServeGuard::pasteSourcePassesTheGuard()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString source = makePracticeImage(m_dir.path(), QStringLiteral("paste-source.img"));
    const QString target = makePracticeImage(m_dir.path(), QStringLiteral("paste-target.img"));
    QVERIFY(!source.isEmpty() && !target.isEmpty());
    const QByteArray before = fileSha256(target);
    LoopDevice loop(target);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("PKEXEC_UID"), QString::number(::getuid() + 4242));
    ServeClient helper(environment);
    const QJsonObject plan{{QStringLiteral("operations"),
                            QJsonArray{QJsonObject{{QStringLiteral("op"), QStringLiteral("paste")},
                                                   {QStringLiteral("source"), source},
                                                   {QStringLiteral("number"), 1}}}}};
    for (const QString &method : {QStringLiteral("preview"), QStringLiteral("apply")}) {
        const QJsonObject refused = helper.call(
            method, {{QStringLiteral("path"), loop.path()}, {QStringLiteral("plan"), plan}});
        QCOMPARE(errorCodeOf(refused), -32001);
        const QString message = refused.value(QStringLiteral("error"))
                                    .toObject()
                                    .value(QStringLiteral("message"))
                                    .toString();
        QVERIFY2(message.contains(QStringLiteral("paste's source is refused")) &&
                     message.contains(QStringLiteral("works on disks in /dev only")),
                 qPrintable(message));
    }
    QCOMPARE(fileSha256(target), before);
}

// The root helper as pkexec starts it for the user who owns `image` (a user every system has,
// given the image): a paste source must be bytes that user could read alone.
QProcessEnvironment TestServeGuard::helperForOwnerOf(const QString &image)
{
    const passwd *nobody = ::getpwnam("nobody");
    if (!nobody)
        return {};
    ::chmod(QFile::encodeName(m_dir.path()).constData(), 0711);
    ::chown(QFile::encodeName(image).constData(), nobody->pw_uid, nobody->pw_gid);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("PKEXEC_UID"), QString::number(nobody->pw_uid));
    return environment;
}

// A preview runs while the helper reads nothing else, not even the end of its input. A plan of a
// thousand pastes of one partition (the most a plan holds) reads that partition once: root's
// helper answers in seconds, not after measuring the same filesystem a thousand times.
void TestServeGuard::aThousandPastesOfOnePartitionArePreviewedPromptly()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString source = makePracticeImage(m_dir.path(), QStringLiteral("many-source.img"));
    const QString target = makePracticeImage(m_dir.path(), QStringLiteral("many-target.img"));
    QVERIFY(!source.isEmpty() && !target.isEmpty());
    LoopDevice from(source);
    LoopDevice onto(target);
    QVERIFY2(from.ok() && onto.ok(), qPrintable(from.error() + onto.error()));
    QJsonArray operations;
    for (int n = 0; n < 1000; ++n)
        operations.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("paste")},
                                      {QStringLiteral("source"), from.path()},
                                      {QStringLiteral("number"), 1}});
    ServeClient helper(helperForOwnerOf(source));
    QElapsedTimer timer;
    timer.start();
    const QJsonObject preview = helper.call(
        QStringLiteral("preview"),
        {{QStringLiteral("path"), onto.path()},
         {QStringLiteral("plan"), QJsonObject{{QStringLiteral("operations"), operations}}}},
        30000);
    QVERIFY2(!preview.isEmpty(), "no answer to the preview within 30 s");
    QVERIFY2(resultOf(preview).contains(QStringLiteral("failed_index")),
             qPrintable(describe(preview)));
    QVERIFY2(timer.elapsed() < 30000, qPrintable(QString::number(timer.elapsed())));
}

// A paste from one disk onto another, both served by the one root helper the window starts for
// a user (pkexec): the plan applied through the helper, the source partition on one loop device
// and the free space on another. The copy is on the grain, its check clean, every file the
// same, and the source not written.
void TestServeGuard::pasteBetweenTwoLoopDevices()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString source = makePracticeImage(m_dir.path(), QStringLiteral("two-source.img"));
    QVERIFY(!source.isEmpty());
    const QString target = m_dir.filePath(QStringLiteral("two-target.img"));
    QString error;
    QVERIFY2(SfdiskTable::writeImage(target, 128 << 20, "label: dos\n", &error), qPrintable(error));
    const QByteArray sourceBefore = fileSha256(source);
    {
        LoopDevice from(source);
        LoopDevice onto(target);
        QVERIFY2(from.ok() && onto.ok(), qPrintable(from.error() + onto.error()));
        ServeClient helper(helperForOwnerOf(source));
        const QJsonObject plan{
            {QStringLiteral("operations"),
             QJsonArray{QJsonObject{{QStringLiteral("op"), QStringLiteral("paste")},
                                    {QStringLiteral("source"), from.path()},
                                    {QStringLiteral("number"), 1}}}}};
        const int id = helper.send(QStringLiteral("apply"),
                                   {{QStringLiteral("path"), onto.path()}, {"plan", plan}});
        const QJsonObject answer = helper.answer(id, 300000);
        QVERIFY2(resultOf(answer).value(QStringLiteral("ok")).toBool(),
                 qPrintable(describe(answer)));
    }
    QCOMPARE(fileSha256(source), sourceBefore);
    const SfdiskTable from = SfdiskTable::read(source);
    const SfdiskTable onto = SfdiskTable::read(target);
    QVERIFY2(from.ok && onto.ok, qPrintable(from.error + onto.error));
    QCOMPARE(onto.partitions.size(), 1);
    QCOMPARE(onto.partitions.first().start % 2048, 0);
    QVERIFY(onto.partitions.first().size >= from.find(1)->size);
    QStringList problems;
    const auto before = partitionContents(source, 512, from, &problems);
    const auto after = partitionContents(target, 512, onto, &problems); // with each fs's check
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QVERIFY(before.contains(1) && !before[1].files.isEmpty());
    QVERIFY(after.contains(1));
    QCOMPARE(after[1].fs, before[1].fs);
    QCOMPARE(after[1].files, before[1].files);
}

QTEST_GUILESS_MAIN(TestServeGuard)
#include "tst_serveguard.moc"
