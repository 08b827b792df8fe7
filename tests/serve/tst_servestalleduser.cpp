// What the root helper runs with a hostile user's rights (a plan's key file read as the user,
// core/base/userfileread) can be held for ever by that user: a key file inside a FUSE mount of
// the user's that is never served (as on a desktop, where /dev/fuse is open to every user)
// leaves its open() waiting. The helper must still answer the request (a refusal naming the key
// file) within seconds, write nothing to the disk, and end with its input; once it waited as
// long as the user liked, deaf to the end of its input.
#include "buildsetting.h"
#include "clirun.h"
#include "device/fusemount.h"
#include "filechecksum.h"
#include "fuseaccess.h"
#include "loopdevice.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pwtest;

namespace {

// Forks a process that becomes `uid`/`gid` and runs `body`; its exit status is body's.
pid_t forkAsUser(uid_t uid, gid_t gid, const std::function<int()> &body)
{
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::setgroups(0, nullptr) != 0 || ::setresgid(gid, gid, gid) != 0 ||
            ::setresuid(uid, uid, uid) != 0)
            ::_exit(100);
        ::_exit(body());
    }
    return pid;
}

void reap(pid_t pid)
{
    if (pid > 0 && ::kill(pid, SIGKILL) == 0)
        ::waitpid(pid, nullptr, 0);
}

// A process of the user's holding a FUSE mount it never serves, until killed; its mount point
// in `*mountPoint`, or -1 with fusermount3's words there.
pid_t holdStalledMount(uid_t uid, gid_t gid, QString *mountPoint)
{
    int ready[2];
    if (::pipe(ready) != 0)
        return -1;
    const pid_t pid = forkAsUser(uid, gid, [&]() {
        partwise::FuseMount mount({QStringLiteral("nosuid"), QStringLiteral("nodev")});
        const QByteArray said =
            mount.ok() ? "/" + QFile::encodeName(mount.mountPoint()) : mount.error().toUtf8();
        if (::write(ready[1], said.constData(), size_t(said.size())) != said.size())
            return 1;
        ::close(ready[1]);
        ::pause();
        return 0;
    });
    ::close(ready[1]);
    QByteArray said(4096, '\0');
    const ssize_t n = pid > 0 ? ::read(ready[0], said.data(), size_t(said.size())) : -1;
    ::close(ready[0]);
    said.truncate(n > 0 ? n : 0);
    if (!said.startsWith('/')) {
        *mountPoint = QString::fromUtf8(said);
        reap(pid);
        return -1;
    }
    *mountPoint = QFile::decodeName(said.mid(1));
    return pid;
}

} // namespace

class TestServeStalledUser : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void aStalledKeyFileEndsInSeconds();

private:
    QTemporaryDir m_dir;
    TestUser m_user;
};

void TestServeStalledUser::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(buildSetting("PARTWISE_CLI"));
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0711) == 0);
    QVERIFY2(m_user.create(QStringLiteral("pwstall"), QStringLiteral("/bin/sh"),
                           m_dir.filePath(QStringLiteral("home"))),
             qPrintable(m_user.error()));
    const QByteArray home = QFile::encodeName(m_dir.filePath(QStringLiteral("home")));
    QVERIFY(QDir().mkpath(QFile::decodeName(home)));
    QVERIFY(::chown(home.constData(), m_user.uid(), m_user.gid()) == 0);
    QVERIFY(::chmod(home.constData(), 0700) == 0);
}

void TestServeStalledUser::cleanupTestCase()
{
    m_user.remove();
}

void TestServeStalledUser::aStalledKeyFileEndsInSeconds()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString disk = m_dir.filePath(QStringLiteral("disk.img"));
    QVERIFY(runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("8M"), disk})
                .ok());
    LoopDevice loop(disk);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const QByteArray before = fileSha256(loop.path());
    QString mountPoint;
    pid_t holder = -1;
    {
        FuseOpenToUsers desktop; // only while the user mounts: the mount keeps its descriptor
        QVERIFY2(desktop.ok(), qPrintable(desktop.error()));
        holder = holdStalledMount(m_user.uid(), m_user.gid(), &mountPoint);
    }
    QVERIFY2(holder > 0, qPrintable(mountPoint));

    ServeClient helper(m_user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QJsonObject luks{{"op", "create"},
                           {"size", "4MiB"},
                           {"fs", "luks2"},
                           {"key_file", mountPoint + QStringLiteral("/key")}};
    const QJsonObject plan{
        {"operations", QJsonArray{QJsonObject{{"op", "new-table"}, {"type", "gpt"}}, luks}}};
    QElapsedTimer clock;
    clock.start();
    const QJsonObject answer =
        helper.call(QStringLiteral("apply"), {{"path", loop.path()}, {"plan", plan}}, 30000);
    const qint64 answeredAfter = clock.elapsed();
    const bool ended = helper.closeAndWait(20000);
    reap(holder); // the mount's keeper unmounts it
    QVERIFY2(!answer.isEmpty(), "the helper did not answer within 30 s");
    qInfo("answered after %lld ms: %s", answeredAfter, qPrintable(describe(answer)));
    QCOMPARE(errorCodeOf(answer), -32001);
    QVERIFY2(answer.value(QStringLiteral("error"))
                 .toObject()
                 .value(QStringLiteral("message"))
                 .toString()
                 .contains(QStringLiteral("key file")),
             qPrintable(describe(answer)));
    QVERIFY(ended);
    QCOMPARE(fileSha256(loop.path()), before);
}

QTEST_GUILESS_MAIN(TestServeStalledUser)
#include "tst_servestalleduser.moc"
