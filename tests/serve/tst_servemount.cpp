// The root helper's unmount, mount, swapoff and swapon against a hostile local user (a user the
// test creates; PKEXEC_UID names it as pkexec does). Mounting is root's alone, so a folder the
// user names must be the user's own and reached without a link: a request to mount over /etc or
// a root-owned folder, or through a link swapped in under the helper, must be refused with
// nothing mounted there and the folder's files as they were (sha256), checked with findmnt and
// the kernel's table, never with Partwise's own code. What the user may do works: mount on their
// folder (nosuid,nodev), under /run/media, unmount it, mount back what the helper unmounted, and
// turn a swap partition off and on. A partition the kernel still places where an older table had
// it is neither mounted nor swapped on: its node shows other sectors than the window does.
#include "buildsetting.h"
#include "clirun.h"
#include "device/diskwritelock.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr char kUser[] = "pwmount";

QString messageOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("error"))
        .toObject()
        .value(QStringLiteral("message"))
        .toString();
}

// What findmnt (util-linux) says is mounted on exactly `folder`: "SOURCE OPTIONS", or empty.
QString mountedOn(const QString &folder)
{
    const ToolResult r =
        runTool(QStringLiteral("findmnt"),
                {QStringLiteral("-n"), QStringLiteral("-o"), QStringLiteral("SOURCE,OPTIONS"),
                 QStringLiteral("--mountpoint"), folder});
    return QString::fromLocal8Bit(r.out).trimmed();
}

// Where findmnt says `device` is mounted, one target a line.
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

class TestServeMount : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void parametersAreValidatedFirst();
    void mountOverAFolderNotTheUsersIsRefused();
    void linksOnTheWayAreNeverFollowed();
    void linkSwapRaceNeverMountsOutside();
    void usersOwnFolderAndMediaWork();
    void systemPlacesAreNotUnmountedForAUser();
    void unmountedIsMountedBackWhereItWas();
    void swapIsTurnedOffAndOn();
    void staleKernelPartitionIsNotMounted();
    void aDiskAJobWritesIsNotMounted();

private:
    void verifyVictimUntouched();

    QTemporaryDir m_dir;
    QString m_home, m_rootDir, m_rootFile, m_image;
    QByteArray m_rootFileSum, m_etcMounts;
    std::unique_ptr<LoopDevice> m_loop;
    TestUser m_user;
};

void TestServeMount::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    // The user's home is their folder in the test's: what they mount there they may unmount.
    m_home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY2(m_user.create(QString::fromLatin1(kUser), QStringLiteral("/bin/sh"), m_home),
             qPrintable(m_user.error()));
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0711) == 0);
    QVERIFY(QDir().mkpath(m_home));
    QVERIFY(::chown(QFile::encodeName(m_home).constData(), m_user.uid(), m_user.gid()) == 0);
    // A folder of root's, as /etc is, with a file a mount over it would hide.
    m_rootDir = m_dir.filePath(QStringLiteral("rootdir"));
    QVERIFY(QDir().mkpath(m_rootDir));
    QVERIFY(::chmod(QFile::encodeName(m_rootDir).constData(), 0755) == 0);
    m_rootFile = m_rootDir + QStringLiteral("/passwd");
    QFile file(m_rootFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("root:x:0:0:root:/root:/bin/sh\n");
    file.close();
    m_rootFileSum = fileSha256(m_rootFile);
    m_etcMounts = mountedOn(QStringLiteral("/etc")).toUtf8();
    // A disk: partition 1 ext4, partition 2 swap.
    m_image = m_dir.filePath(QStringLiteral("disk.img"));
    QVERIFY(
        runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("48M"), m_image})
            .ok());
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), m_image},
                "label: gpt\nstart=2048, size=40960, type=linux\nstart=43008, size=16384, "
                "type=swap\n");
    QVERIFY2(table.ok(), qPrintable(table.describe()));
    m_loop = std::make_unique<LoopDevice>(m_image);
    QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
    QVERIFY(m_loop->addPartitions());
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-L"),
                     QStringLiteral("pwdata"), m_loop->partitionNode(1)})
                .ok());
    QVERIFY(runTool(QStringLiteral("mkswap"), {m_loop->partitionNode(2)}).ok());
}

void TestServeMount::cleanupTestCase()
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

void TestServeMount::verifyVictimUntouched()
{
    QCOMPARE(mountedOn(m_rootDir), QString());
    QCOMPARE(mountedOn(QStringLiteral("/etc")).toUtf8(), m_etcMounts);
    QCOMPARE(fileSha256(m_rootFile), m_rootFileSum);
    QVERIFY(targetsOf(m_loop->partitionNode(1)).isEmpty());
}

void TestServeMount::parametersAreValidatedFirst()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    ServeClient helper(m_user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QString disk = m_loop->path();
    const QList<QPair<QString, QJsonObject>> bad{
        {"mount", {{"path", disk}, {"partition", 1}}},
        {"mount", {{"path", disk}, {"partition", 1}, {"folder", "relative"}}},
        {"mount", {{"path", disk}, {"partition", 1}, {"folder", m_home + "/../rootdir"}}},
        {"mount", {{"path", disk}, {"partition", 1}, {"folder", m_home + "//x"}}},
        {"mount", {{"path", disk}, {"partition", 1}, {"folder", 17}}},
        {"mount", {{"path", disk}, {"partition", 1}, {"folder", m_home}, {"media", true}}},
        {"mount", {{"path", disk}, {"partition", 0}, {"media", true}}},
        {"mount", {{"path", disk}, {"partition", 1.5}, {"media", true}}},
        {"mount", {{"path", disk}, {"partition", 1e300}, {"media", true}}},
        {"unmount", {{"path", disk}}},
        {"unmount", {{"path", disk}, {"partition", 1}, {"folder", m_home}}},
        {"swapon", {{"path", disk}, {"partition", "2"}}},
    };
    for (const auto &[method, params] : bad) {
        const QJsonObject answer = helper.call(method, params);
        QVERIFY2(errorCodeOf(answer) == -32602, qPrintable(method + ": " + describe(answer)));
    }
    // Not a partition of the served disk: a number it lacks, a partition named as the disk.
    QVERIFY(errorCodeOf(helper.call("unmount", {{"path", disk}, {"partition", 9}})) == -32001);
    QVERIFY(errorCodeOf(helper.call("mount", {{"path", m_loop->partitionNode(1)},
                                              {"partition", 1},
                                              {"media", true}})) == -32001);
    QVERIFY(errorCodeOf(helper.call("unmount", {{"path", m_image}, {"partition", 1}})) == -32001);
    verifyVictimUntouched();
}

void TestServeMount::mountOverAFolderNotTheUsersIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    ServeClient helper(m_user.pkexecEnvironment());
    // Root's test folder first: were the check gone, that mount would make /etc's refusal
    // "mounted already" instead of covering the machine's /etc.
    for (const QString &folder : {m_rootDir, QStringLiteral("/tmp"), QStringLiteral("/etc")}) {
        const QJsonObject answer =
            helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"folder", folder}});
        QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(describe(answer)));
        QVERIFY2(messageOf(answer).contains(QStringLiteral("not your folder")),
                 qPrintable(messageOf(answer)));
    }
    verifyVictimUntouched();
}

void TestServeMount::linksOnTheWayAreNeverFollowed()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // The user's links: the last component to root's folder, and one on the way to it. The
    // folder behind the second is the user's own, so only the link refuses it.
    const ToolResult planted =
        m_user.asUser(QStringLiteral("ln -s %1 %2/link && mkdir %2/real && ln -s %2 %2/up")
                          .arg(m_rootDir, m_home));
    QVERIFY(planted.ok());
    ServeClient helper(m_user.pkexecEnvironment());
    for (const QString &folder :
         {m_home + QStringLiteral("/link"), m_home + QStringLiteral("/up/real")}) {
        const QJsonObject answer =
            helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"folder", folder}});
        QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(describe(answer)));
        QVERIFY2(messageOf(answer).contains(QStringLiteral("symbolic link")),
                 qPrintable(messageOf(answer)));
    }
    QCOMPARE(mountedOn(m_home + QStringLiteral("/real")), QString());
    verifyVictimUntouched();
    QVERIFY(m_user.asUser(QStringLiteral("rm -r %1/link %1/real %1/up").arg(m_home)).ok());
}

void TestServeMount::linkSwapRaceNeverMountsOutside()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // The user swaps a folder of theirs with a link to root's folder as fast as it can while
    // the helper is asked to mount there again and again (bounded: 40 tries, 20 s).
    QProcess swapper;
    swapper.start(
        QStringLiteral("setpriv"),
        m_user.asUserArgs({QStringLiteral("sh"), QStringLiteral("-c"),
                           QStringLiteral("cd %1 && mkdir -p d && ln -sfn %2 l && while :; do "
                                          "mv -T d t; mv -T l d; mv -T d l; mv -T t d; done")
                               .arg(m_home, m_rootDir)}));
    QVERIFY(swapper.waitForStarted());
    ServeClient helper(m_user.pkexecEnvironment());
    int mounted = 0;
    int refused = 0;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 40 && timer.elapsed() < 20000; ++i) {
        const QJsonObject answer = helper.call(
            "mount", {{"path", m_loop->path()}, {"partition", 1}, {"folder", m_home + "/d"}});
        QCOMPARE(mountedOn(m_rootDir), QString());
        if (errorCodeOf(answer) != 0) {
            ++refused;
            continue;
        }
        ++mounted;
        // Where it went is a folder of the user's (the one swapped in as "d" then).
        const QStringList targets = targetsOf(m_loop->partitionNode(1));
        QCOMPARE(targets.size(), 1);
        QVERIFY2(targets.first().startsWith(m_home + QLatin1Char('/')),
                 qPrintable(targets.first()));
        QVERIFY(runTool(QStringLiteral("umount"), {m_loop->partitionNode(1)}).ok());
    }
    swapper.kill();
    swapper.waitForFinished();
    qInfo("link-swap race: %d mounted on the user's own folder, %d refused", mounted, refused);
    QVERIFY(refused > 0);
    verifyVictimUntouched();
    runTool(QStringLiteral("rm"),
            {QStringLiteral("-rf"), m_home + "/d", m_home + "/l", m_home + "/t"});
}

void TestServeMount::usersOwnFolderAndMediaWork()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_user.asUser(QStringLiteral("mkdir -p %1/mnt").arg(m_home)).ok());
    const QString folder = m_home + QStringLiteral("/mnt");
    ServeClient helper(m_user.pkexecEnvironment());
    QJsonObject answer =
        helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"folder", folder}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    const QString options = mountedOn(folder);
    QVERIFY2(options.startsWith(m_loop->partitionNode(1)), qPrintable(options));
    QVERIFY2(options.contains(QStringLiteral("nosuid")) &&
                 options.contains(QStringLiteral("nodev")),
             qPrintable(options));
    // In the user's home, so the user may unmount it.
    answer = helper.call("unmount", {{"path", m_loop->path()}, {"partition", 1}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QCOMPARE(mountedOn(folder), QString());

    answer = helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"media", true}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    const QString media = QStringLiteral("/run/media/%1/pwdata").arg(kUser);
    QVERIFY2(mountedOn(media).startsWith(m_loop->partitionNode(1)), qPrintable(mountedOn(media)));
    QVERIFY(mountedOn(media).contains(QStringLiteral("nosuid")));
    struct stat st;
    QVERIFY(::stat(QFile::encodeName(QStringLiteral("/run/media/") + kUser).constData(), &st) == 0);
    QCOMPARE(st.st_uid, uid_t(0));
    answer = helper.call("unmount", {{"path", m_loop->path()}, {"partition", 1}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QCOMPARE(mountedOn(media), QString());
    // The folder the helper made goes with its mount; mounted back, it is there again.
    QVERIFY(!QFileInfo::exists(media));
    answer = helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"back", true}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QVERIFY2(mountedOn(media).startsWith(m_loop->partitionNode(1)), qPrintable(mountedOn(media)));
    answer = helper.call("unmount", {{"path", m_loop->path()}, {"partition", 1}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QCOMPARE(mountedOn(media), QString());
    QVERIFY(!QFileInfo::exists(media));
    verifyVictimUntouched();
}

void TestServeMount::systemPlacesAreNotUnmountedForAUser()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // Mounted by root where the system keeps filesystems (not the user's /media/USER,
    // /run/media/USER or home): a program of the user must not free it for a write.
    const QString place = m_dir.filePath(QStringLiteral("system-place"));
    QVERIFY(QDir().mkpath(place));
    QVERIFY(runTool(QStringLiteral("mount"), {m_loop->partitionNode(1), place}).ok());
    ServeClient helper(m_user.pkexecEnvironment());
    const QJsonObject answer = helper.call("unmount", {{"path", m_loop->path()}, {"partition", 1}});
    QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(describe(answer)));
    QCOMPARE(targetsOf(m_loop->partitionNode(1)), QStringList{place});
    QVERIFY(runTool(QStringLiteral("umount"), {place}).ok());
}

void TestServeMount::unmountedIsMountedBackWhereItWas()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // Where udisks mounts the user's filesystems (/media/USER), by root, with its own options.
    const QString place = QStringLiteral("/media/%1/pwtest-%2").arg(kUser).arg(::getpid());
    QVERIFY(QDir().mkpath(place));
    QVERIFY(runTool(QStringLiteral("mount"), {QStringLiteral("-o"), QStringLiteral("noatime"),
                                              m_loop->partitionNode(1), place})
                .ok());
    ServeClient helper(m_user.pkexecEnvironment());
    // Nothing to mount back before this helper unmounted it.
    QCOMPARE(errorCodeOf(helper.call("mount",
                                     {{"path", m_loop->path()}, {"partition", 1}, {"back", true}})),
             -32001);
    QJsonObject answer = helper.call("unmount", {{"path", m_loop->path()}, {"partition", 1}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QCOMPARE(mountedOn(place), QString());
    answer = helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"back", true}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    // Its options come back, and what root adds for a user: the bytes may have changed since.
    const QString options = mountedOn(place);
    QVERIFY(runTool(QStringLiteral("umount"), {place}).ok());
    QDir().rmdir(place);
    QDir().rmdir(QStringLiteral("/media/") + kUser);
    QVERIFY2(options.contains(QStringLiteral("noatime")), qPrintable(options));
    QVERIFY2(options.contains(QStringLiteral("nosuid")) &&
                 options.contains(QStringLiteral("nodev")),
             qPrintable(options));
}

void TestServeMount::swapIsTurnedOffAndOn()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // Root working for root (an administrator's own helper): off and on again. For a user any
    // active swap is the system's and stays on (serve_surfaces).
    const QString swap = m_loop->partitionNode(2);
    QVERIFY(runTool(QStringLiteral("swapon"), {swap}).ok());
    ServeClient helper;
    QJsonObject answer = helper.call("swapoff", {{"path", m_loop->path()}, {"partition", 2}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QVERIFY(!swapIsOnPerKernel(swap));
    answer = helper.call("swapon", {{"path", m_loop->path()}, {"partition", 2}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QVERIFY(swapIsOnPerKernel(swap));
    // The ext4 partition is no swap area: refused.
    QVERIFY(errorCodeOf(helper.call("swapon", {{"path", m_loop->path()}, {"partition", 1}})) != 0);
    QVERIFY(runTool(QStringLiteral("swapoff"), {swap}).ok());
}

void TestServeMount::staleKernelPartitionIsNotMounted()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString image = m_dir.filePath(QStringLiteral("stale.img"));
    QVERIFY(
        runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("48M"), image})
            .ok());
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), loop.path()},
                    "label: gpt\nstart=43008, size=40960, type=linux\n")
                .ok());
    QVERIFY(loop.addPartitions());
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-L"),
                     QStringLiteral("older"), loop.partitionNode(1)})
                .ok());
    // The table now says partition 1 is at 2048, with a filesystem of its own; the kernel is not
    // told, as when a busy disk's table is rewritten.
    runTool(QStringLiteral("sfdisk"),
            {QStringLiteral("-q"), QStringLiteral("--no-reread"), loop.path()},
            "label: gpt\nstart=2048, size=40960, type=linux\n");
    QVERIFY(
        runTool(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-L"),
                 QStringLiteral("shown"), QStringLiteral("-E"),
                 QStringLiteral("offset=%1").arg(2048 * 512), loop.path(), QStringLiteral("20480")})
            .ok());
    ServeClient helper(m_user.pkexecEnvironment());
    const QJsonObject answer =
        helper.call("mount", {{"path", loop.path()}, {"partition", 1}, {"media", true}});
    const QStringList targets = targetsOf(loop.partitionNode(1));
    for (const QString &target : targets)
        runTool(QStringLiteral("umount"), {target});
    QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(describe(answer)));
    QVERIFY2(messageOf(answer).contains(QStringLiteral("the kernel has not read")),
             qPrintable(describe(answer)));
    QVERIFY2(targets.isEmpty(), "the older table's filesystem was mounted");
    QVERIFY(errorCodeOf(helper.call("swapon", {{"path", loop.path()}, {"partition", 1}})) != 0);
}

// A second helper of the same user mounting a partition while the first moves its data: the
// disk's write lock says a job runs, and mount refuses until it has ended.
void TestServeMount::aDiskAJobWritesIsNotMounted()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_user.asUser(QStringLiteral("mkdir -p %1/busy").arg(m_home)).ok());
    const QString folder = m_home + QStringLiteral("/busy");
    ServeClient helper(m_user.pkexecEnvironment());
    {
        const partwise::DiskWriteLock job(m_loop->path());
        QVERIFY2(job.ok(), qPrintable(job.error()));
        const QJsonObject answer =
            helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"folder", folder}});
        QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(describe(answer)));
        QVERIFY2(messageOf(answer).contains(QStringLiteral("is writing")),
                 qPrintable(describe(answer)));
        QCOMPARE(mountedOn(folder), QString());
    }
    const QJsonObject answer =
        helper.call("mount", {{"path", m_loop->path()}, {"partition", 1}, {"folder", folder}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QVERIFY(errorCodeOf(helper.call("unmount", {{"path", m_loop->path()}, {"partition", 1}})) == 0);
    QCOMPARE(mountedOn(folder), QString());
}

QTEST_GUILESS_MAIN(TestServeMount)
#include "tst_servemount.moc"
