// Write jobs on a machine where udevd runs, as on every desktop: a realignment and an Apply of a
// loop disk finish (within a bound that only a hang exceeds), the partitions land on the grain
// as sfdisk reads them, every filesystem checks clean, and udev's queue drains afterwards
// (`udevadm settle`): nothing of Partwise's keeps udev's events back once a job has ended.
// Before, the job's disk lock held udev's events back while libparted waited for them, and the
// job never returned. The test starts systemd-udevd itself where none runs, and stops it again.
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

// A hang, not a slow machine: these jobs move a few MiB.
constexpr int kBoundMs = 240000;

QString udevd()
{
    for (const char *path : {"/lib/systemd/systemd-udevd", "/usr/lib/systemd/systemd-udevd"})
        if (QFile::exists(QLatin1String(path)))
            return QLatin1String(path);
    return {};
}

bool udevdAnswers()
{
    return runTool(QStringLiteral("udevadm"), {QStringLiteral("control"), QStringLiteral("--ping"),
                                               QStringLiteral("-t"), QStringLiteral("2")})
        .ok();
}

// systemd-udevd applies its rules' static_node permissions when it starts: /dev/fuse becomes
// 0666 and /dev/loop-control group disk, as on a desktop. The suites after this one expect the
// machine as it was (those that need /dev/fuse open or closed set it themselves, but a bare
// machine is left bare), so the nodes' modes and owners are noted first and put back.
struct NodeOwnership
{
    QByteArray path;
    struct stat st
    {
    };
    bool known = false;
};

QList<NodeOwnership> noteStaticNodes()
{
    QList<NodeOwnership> nodes;
    for (const char *path : {"/dev/fuse", "/dev/loop-control"}) {
        NodeOwnership node{path};
        node.known = ::stat(path, &node.st) == 0;
        nodes.append(node);
    }
    return nodes;
}

void restoreStaticNodes(const QList<NodeOwnership> &nodes)
{
    for (const NodeOwnership &node : nodes) {
        if (!node.known)
            continue;
        if (::chown(node.path.constData(), node.st.st_uid, node.st.st_gid) != 0)
            qWarning("chown %s: %s", node.path.constData(), std::strerror(errno));
        if (::chmod(node.path.constData(), node.st.st_mode & 07777) != 0)
            qWarning("chmod %s: %s", node.path.constData(), std::strerror(errno));
    }
}

} // namespace

class TestRealignUdev : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void realignAndApplyFinishWithUdevRunning();

private:
    QTemporaryDir m_dir;
    QProcess m_udevd; // only when this test started it
    QList<NodeOwnership> m_staticNodes;
};

void TestRealignUdev::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    if (udevdAnswers())
        return; // a desktop's own udevd
    const QString program = udevd();
    QVERIFY2(!program.isEmpty(), "systemd-udevd is not installed (package udev)");
    m_staticNodes = noteStaticNodes();
    m_udevd.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_udevd.start(program, {});
    QVERIFY(m_udevd.waitForStarted());
    QDeadlineTimer started(20000);
    while (!udevdAnswers() && !started.hasExpired())
        QThread::msleep(100);
    QVERIFY2(udevdAnswers(), "systemd-udevd did not answer");
}

void TestRealignUdev::cleanupTestCase()
{
    if (m_udevd.state() != QProcess::NotRunning) {
        m_udevd.terminate();
        if (!m_udevd.waitForFinished(10000)) {
            m_udevd.kill();
            m_udevd.waitForFinished(5000);
        }
    }
    restoreStaticNodes(m_staticNodes);
}

void TestRealignUdev::realignAndApplyFinishWithUdevRunning()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString image = m_dir.filePath(QStringLiteral("udev.img"));
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("--size"),
                                   QStringLiteral("64M"), QStringLiteral("gpt-34"), image});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));

    const CliResult realigned = runCli(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), loop.path()},
        kBoundMs);
    QVERIFY2(!realigned.crashed && realigned.exitCode == 0, qPrintable(realigned.describe()));
    const SfdiskTable after = SfdiskTable::read(loop.path());
    QVERIFY2(after.ok && !after.partitions.isEmpty(), qPrintable(after.error));
    for (const SfdiskPartition &p : after.partitions)
        QCOMPARE(p.start % 2048, 0);

    // An Apply's table change goes through the same commit: the last partition gives way to two.
    const QString plan = m_dir.filePath(QStringLiteral("plan.json"));
    QFile planFile(plan);
    QVERIFY(planFile.open(QIODevice::WriteOnly));
    planFile.write(R"({"operations":[{"op":"delete","number":3},{"op":"create","size":"4MiB"},)"
                   R"({"op":"create","size":"4MiB"}]})");
    planFile.close();
    const CliResult applied =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), plan, loop.path()}, kBoundMs);
    QVERIFY2(!applied.crashed && applied.exitCode == 0, qPrintable(applied.describe()));
    QCOMPARE(SfdiskTable::read(loop.path()).partitions.size(), after.partitions.size() + 1);

    // udev's queue drains: nothing is held back once the jobs have ended.
    const ToolResult settled =
        runTool(QStringLiteral("udevadm"),
                {QStringLiteral("settle"), QStringLiteral("-t"), QStringLiteral("60")});
    QVERIFY2(settled.ok(), qPrintable(settled.describe()));
    // Every filesystem is whole (fsck read-only, through the kernel's refreshed nodes).
    for (const SfdiskPartition &p : after.partitions) {
        const QString node = loop.partitionNode(p.number);
        const ToolResult type =
            runTool(QStringLiteral("blkid"),
                    {QStringLiteral("-p"), QStringLiteral("-o"), QStringLiteral("value"),
                     QStringLiteral("-s"), QStringLiteral("TYPE"), node});
        const QString fs = QString::fromLatin1(type.out).trimmed();
        if (fs == QLatin1String("ext4")) {
            const ToolResult fsck =
                runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), node});
            QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
        } else if (fs == QLatin1String("vfat")) {
            const ToolResult fsck =
                runTool(QStringLiteral("fsck.fat"), {QStringLiteral("-n"), node});
            QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
        }
    }
}

QTEST_GUILESS_MAIN(TestRealignUdev)
#include "tst_realignudev.moc"
