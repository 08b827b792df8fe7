// A hostile local user against the root helper's mount, unmount and swap methods, beyond what
// serve_mount covers: each case is a way a program of the user got more from root than the user
// could do alone, found by trying it. The user is one the test creates (PKEXEC_UID names it as
// pkexec does); what happened is checked with findmnt, swapon --show and ps, never with
// Partwise's own code.
//   - swap turned on over a loop device whose backing file the user owns: root's memory would
//     be written to the user's file (readable, and writable under the kernel's feet);
//   - another user's mount under /run/media/OTHER unmounted, so that it can be mounted again on
//     the attacker's folder, outside the other user's 0750 folder;
//   - a mount over /proc/PID (a folder the user owns) hiding the user's process from root's ps;
//   - the processes of other users (root's here) named to the user in a busy refusal, which
//     fuser as that user does not show.
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr char kUser[] = "pwmountattack";

QString messageOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("error"))
        .toObject()
        .value(QStringLiteral("message"))
        .toString();
}

QString mountedOn(const QString &folder)
{
    const ToolResult r =
        runTool(QStringLiteral("findmnt"),
                {QStringLiteral("-n"), QStringLiteral("-o"), QStringLiteral("SOURCE"),
                 QStringLiteral("--mountpoint"), folder});
    return QString::fromLocal8Bit(r.out).trimmed();
}

QStringList targetsOf(const QString &device)
{
    const ToolResult r = runTool(QStringLiteral("findmnt"),
                                 {QStringLiteral("-n"), QStringLiteral("-o"),
                                  QStringLiteral("TARGET"), QStringLiteral("--source"), device});
    return QString::fromLocal8Bit(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

bool swapIsOnPerKernel(const QString &device)
{
    const ToolResult r = runTool(QStringLiteral("swapon"),
                                 {QStringLiteral("--show=NAME"), QStringLiteral("--noheadings")});
    return QString::fromLocal8Bit(r.out).split(QLatin1Char('\n')).contains(device);
}

} // namespace

class TestServeMountAttack : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void swapOnAFileTheUserOwnsIsRefused();
    void anotherUsersMediaMountIsNotUnmounted();
    void mountOverProcIsRefused();
    void otherUsersProcessesAreNotNamed();

private:
    QTemporaryDir m_dir;
    QString m_home, m_image;
    std::unique_ptr<LoopDevice> m_loop;
    TestUser m_user;
};

void TestServeMountAttack::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    m_home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY2(m_user.create(QString::fromLatin1(kUser), QStringLiteral("/bin/sh"), m_home),
             qPrintable(m_user.error()));
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0711) == 0);
    QVERIFY(QDir().mkpath(m_home));
    QVERIFY(::chown(QFile::encodeName(m_home).constData(), m_user.uid(), m_user.gid()) == 0);
    // The disk is the user's own image file behind a loop device, as `udisksctl loop-setup`
    // makes one for a desktop user without a password: the node is root's, the bytes the user's.
    m_image = m_home + QStringLiteral("/disk.img");
    QVERIFY(m_user.asUser(QStringLiteral("truncate -s 48M %1").arg(m_image)).ok());
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), m_image},
                "label: gpt\nstart=2048, size=40960, type=linux\nstart=43008, size=16384, "
                "type=swap\n");
    QVERIFY2(table.ok(), qPrintable(table.describe()));
    m_loop = std::make_unique<LoopDevice>(m_image);
    QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
    QVERIFY(m_loop->addPartitions());
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), m_loop->partitionNode(1)})
                .ok());
    QVERIFY(runTool(QStringLiteral("mkswap"), {m_loop->partitionNode(2)}).ok());
    struct stat st;
    QVERIFY(::stat(QFile::encodeName(m_image).constData(), &st) == 0 && st.st_uid == m_user.uid());
}

void TestServeMountAttack::cleanupTestCase()
{
    if (m_loop && m_loop->ok()) {
        for (const QString &target : targetsOf(m_loop->partitionNode(1)))
            runTool(QStringLiteral("umount"), {target});
        runTool(QStringLiteral("swapoff"), {m_loop->partitionNode(2)});
    }
    m_loop.reset();
    m_user.remove();
    runTool(QStringLiteral("rm"), {QStringLiteral("-rf"), QStringLiteral("/run/media/") + kUser});
}

void TestServeMountAttack::swapOnAFileTheUserOwnsIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // Found: the helper turned it on, and a root process pushed into swap by a memory limit left
    // its secret in the user's disk.img (grep as the user found it 94 times).
    const QString swap = m_loop->partitionNode(2);
    ServeClient helper(m_user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QJsonObject answer = helper.call("swapon", {{"path", m_loop->path()}, {"partition", 2}});
    const bool on = swapIsOnPerKernel(swap);
    if (on)
        runTool(QStringLiteral("swapoff"), {swap});
    QVERIFY2(!on, "root's memory would go to a file the user reads and writes");
    QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(describe(answer)));
}

void TestServeMountAttack::anotherUsersMediaMountIsNotUnmounted()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // Another user's stick where udisks puts it: /run/media/OTHER (0750) keeps this user out of
    // its files; unmounted for this user, it could be mounted on this user's folder and read.
    const QString other = QStringLiteral("/run/media/pwvictim%1").arg(::getpid());
    const QString place = other + QStringLiteral("/stick");
    QVERIFY(QDir().mkpath(place));
    QVERIFY(::chmod(QFile::encodeName(other).constData(), 0750) == 0);
    QVERIFY(runTool(QStringLiteral("mount"), {m_loop->partitionNode(1), place}).ok());
    ServeClient helper(m_user.pkexecEnvironment());
    const QJsonObject answer = helper.call("unmount", {{"path", m_loop->path()}, {"partition", 1}});
    const QStringList targets = targetsOf(m_loop->partitionNode(1));
    for (const QString &target : targets)
        runTool(QStringLiteral("umount"), {target});
    runTool(QStringLiteral("rm"), {QStringLiteral("-rf"), other});
    QCOMPARE(targets, QStringList{place});
    QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(describe(answer)));
}

void TestServeMountAttack::mountOverProcIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // /proc/PID of the user's own process belongs to the user; a mount over it hides the process
    // from every ps and top of root's, which no user can do alone.
    QProcess sleeper;
    sleeper.start(QStringLiteral("setpriv"),
                  m_user.asUserArgs({QStringLiteral("sleep"), QStringLiteral("30")}));
    QVERIFY(sleeper.waitForStarted());
    const QString folder = QStringLiteral("/proc/%1").arg(sleeper.processId());
    ServeClient helper(m_user.pkexecEnvironment());
    const QJsonObject answer =
        helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"folder", folder}});
    const QString mounted = mountedOn(folder);
    const ToolResult ps =
        runTool(QStringLiteral("ps"), {QStringLiteral("-o"), QStringLiteral("pid="),
                                       QStringLiteral("-p"), QString::number(sleeper.processId())});
    if (!mounted.isEmpty())
        runTool(QStringLiteral("umount"), {folder});
    sleeper.kill();
    sleeper.waitForFinished();
    QCOMPARE(mounted, QString());
    QVERIFY2(ps.ok(), "root's ps no longer sees the user's process");
    QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(describe(answer)));
}

void TestServeMountAttack::otherUsersProcessesAreNotNamed()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // The user's own mount, kept busy by a process of root's: the refusal may say something of
    // another user's holds it, but not which program with which pid (fuser as the user shows no
    // process there).
    QVERIFY(m_user.asUser(QStringLiteral("mkdir -p %1/m").arg(m_home)).ok());
    const QString folder = m_home + QStringLiteral("/m");
    ServeClient helper(m_user.pkexecEnvironment());
    QJsonObject answer =
        helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"folder", folder}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QProcess rootJob;
    rootJob.setWorkingDirectory(folder);
    rootJob.start(QStringLiteral("sleep"), {QStringLiteral("30")});
    QVERIFY(rootJob.waitForStarted());
    const qint64 rootPid = rootJob.processId();
    const QString pid = QString::number(rootPid);
    const ToolResult fuser = m_user.asUser(QStringLiteral("fuser -m %1 2>/dev/null").arg(folder));
    answer = helper.call("unmount", {{"path", m_loop->path()}, {"partition", 1}});
    rootJob.kill();
    rootJob.waitForFinished();
    runTool(QStringLiteral("umount"), {folder});
    QVERIFY2(!QString::fromLocal8Bit(fuser.out).contains(pid), fuser.out.constData());
    QCOMPARE(errorCodeOf(answer), -32001); // busy
    QVERIFY2(!messageOf(answer).contains(pid), qPrintable(messageOf(answer)));
    const QJsonArray holders = answer.value(QStringLiteral("error"))
                                   .toObject()
                                   .value(QStringLiteral("data"))
                                   .toObject()
                                   .value(QStringLiteral("holders"))
                                   .toArray();
    for (const QJsonValue &h : holders)
        QVERIFY2(h.toObject().value(QStringLiteral("pid")).toInteger() != rootPid,
                 "root's process named to the user");
}

QTEST_GUILESS_MAIN(TestServeMountAttack)
#include "tst_servemountattack.moc"
