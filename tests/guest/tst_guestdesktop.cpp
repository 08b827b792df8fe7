// The desktop's storage stack around Partwise, in the test guest (tests/support/guest): udiskie
// automounting the USB stick as a session's automounter does, through udisksd, while Partwise
// moves its partitions; and partitions held by device-mapper (an open LUKS mapping, an active
// LVM volume) and md (a RAID member), which every job must refuse, naming the holder as its
// owner knows it. Judged by the guest's own tools: /proc/self/mounts sampled through the job,
// findmnt, sfdisk, fsck, cryptsetup status, lvs, mdadm.
#include "clirun.h"
#include "guestdrives.h"
#include "guestfixture.h"
#include "sfdisktable.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <atomic>

using namespace pwtest;

namespace {

constexpr int kJobMs = 600000;
const QString kIgnoreRule = QStringLiteral("/run/udev/rules.d/00-pwtest-fixture.rules");

// While a fixture is written, nothing automounts it (as a drive is made elsewhere and plugged
// in afterwards); then udev's change events show the finished drive to udisksd and udiskie.
class FixtureWithoutAutomount
{
public:
    FixtureWithoutAutomount()
    {
        QDir().mkpath(QFileInfo(kIgnoreRule).path());
        QFile rule(kIgnoreRule);
        rule.open(QIODevice::WriteOnly);
        rule.write("SUBSYSTEM==\"block\", ENV{UDISKS_IGNORE}=\"1\"\n");
        rule.close();
        runTool(QStringLiteral("udevadm"), {QStringLiteral("control"), QStringLiteral("--reload")});
    }
    ~FixtureWithoutAutomount()
    {
        QFile::remove(kIgnoreRule);
        runTool(QStringLiteral("udevadm"), {QStringLiteral("control"), QStringLiteral("--reload")});
        runTool(QStringLiteral("udevadm"),
                {QStringLiteral("trigger"), QStringLiteral("--action=change"),
                 QStringLiteral("--subsystem-match=block")});
        settleUdev();
    }
};

// Samples the kernel's mounts of one disk from a thread, each change with its time.
class MountWatch : public QThread
{
public:
    explicit MountWatch(const QString &disk) : m_disk(disk) {}
    void stop()
    {
        m_stop = true;
        wait();
    }
    // (ms since start, the disk's mounts then) at each change.
    QList<QPair<qint64, QStringList>> changes;
    QElapsedTimer clock;

protected:
    void run() override
    {
        QStringList last{QStringLiteral("-")};
        while (!m_stop) {
            const QStringList now = mountsOf(m_disk);
            if (now != last)
                changes << qMakePair(clock.elapsed(), now);
            last = now;
            QThread::msleep(20);
        }
    }

private:
    QString m_disk;
    std::atomic<bool> m_stop{false};
};

bool waitForMounts(const QString &disk, int count, int ms)
{
    QDeadlineTimer deadline(ms);
    while (mountsOf(disk).size() < count && !deadline.hasExpired())
        QThread::msleep(200);
    return mountsOf(disk).size() >= count;
}

} // namespace

class TestGuestDesktop : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void automounterStaysAwayDuringAMove();
    void heldPartitionsAreRefusedNamingTheHolder();
    void aPlainUsersImagesBesideSnapLoops();

private:
    QList<GuestDrive> m_drives;
    QTemporaryDir m_dir{QStringLiteral("/var/tmp/pw-guest-test.XXXXXX")};
};

void TestGuestDesktop::initTestCase()
{
    QString error;
    m_drives = guestDrives(&error);
    QVERIFY2(!m_drives.isEmpty(), qPrintable(error));
    QVERIFY(m_dir.isValid());
    setCliPath(qEnvironmentVariable("PARTWISE_CLI"));
    QVERIFY2(QFile::exists(QStringLiteral("/run/udiskie.pid")), "udiskie was not started");
}

// The stick as a camera or an old Windows formatted it (FAT at 63) with an ext4 after it, both
// automounted by udiskie. `realign --unmount` unmounts both, moves them while udev announces
// each new table (which udiskie answers by mounting what udisksd shows it), and mounts back
// what it unmounted: no mount of the stick exists from the first move's start to the last
// table write, the same mounts exist afterwards, and every file is whole.
void TestGuestDesktop::automounterStaysAwayDuringAMove()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("usbstick"));
    const QList<GuestPartition> parts{{1, QStringLiteral("vfat"), 60, 6 << 20},
                                      {2, QStringLiteral("ext4"), 60, 6 << 20}};
    QString error;
    QMap<int, QMap<QString, QByteArray>> files;
    {
        FixtureWithoutAutomount quiet;
        files = buildLayout(d.node,
                            QStringLiteral("label: dos\n"
                                           "start=63, size=60000, type=c\n"
                                           "start=64000, size=100000, type=83\n"),
                            parts, m_dir.path(), &error);
        QVERIFY2(!files.isEmpty(), qPrintable(error));
    }
    QVERIFY2(waitForMounts(d.node, 2, 120000),
             qPrintable(QStringLiteral("udiskie did not mount the stick: %1")
                            .arg(mountsOf(d.node).join(QStringLiteral(", ")))));
    const QStringList before = mountsOf(d.node);

    MountWatch watch(d.node);
    watch.clock.start();
    watch.start();
    QProcess job;
    job.setProcessChannelMode(QProcess::MergedChannels);
    job.start(cliPath(), {QStringLiteral("realign"), QStringLiteral("--all"),
                          QStringLiteral("--yes"), QStringLiteral("--unmount"), d.node});
    QByteArray output;
    qint64 firstMove = -1, lastTable = -1;
    while (job.state() != QProcess::NotRunning || job.bytesAvailable() > 0) {
        job.waitForReadyRead(100);
        const QByteArray more = job.readAll();
        if (firstMove < 0 && (output + more).contains("moving:"))
            firstMove = watch.clock.elapsed() - 100;
        if (more.contains("table updated"))
            lastTable = watch.clock.elapsed();
        output += more;
        QVERIFY2(watch.clock.elapsed() < kJobMs, output.constData());
    }
    const qint64 end = watch.clock.elapsed();
    // The whole output, beside the serial console's copy (guest-run keeps the folder).
    QFile log(QStringLiteral("automount-realign.log"));
    if (log.open(QIODevice::WriteOnly))
        log.write(output);
    settleUdev();
    QThread::sleep(3); // time for udiskie to answer the last change events
    watch.stop();
    QVERIFY2(job.exitCode() == 0, output.constData());
    QVERIFY2(firstMove >= 0 && lastTable >= firstMove, output.constData());

    QStringList timeline;
    QStringList mountedMidMove;
    for (const auto &change : std::as_const(watch.changes)) {
        timeline << QStringLiteral("%1 ms: %2").arg(change.first).arg(change.second.join(", "));
        if (change.first >= firstMove && change.first <= lastTable && !change.second.isEmpty())
            mountedMidMove << timeline.last();
    }
    qInfo("job %lld ms; first move at %lld ms, last table write at %lld ms; mounts:\n%s", end,
          firstMove, lastTable, qPrintable(timeline.join(QLatin1Char('\n'))));
    QVERIFY2(mountedMidMove.isEmpty(), qPrintable(mountedMidMove.join(QLatin1Char('\n'))));
    QCOMPARE(mountsOf(d.node), before);

    const SfdiskTable after = SfdiskTable::read(d.node);
    QVERIFY2(after.ok && after.partitions.size() == 2, qPrintable(after.error));
    for (const SfdiskPartition &p : after.partitions)
        QCOMPARE(p.start % 2048, 0);
    for (const QString &m : before)
        runTool(QStringLiteral("umount"), {m.section(QLatin1Char(' '), 0, 0)});
    const QStringList problems = compareLayout(d.node, parts, files);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// One partition an open LUKS mapping, one an active LVM volume group's physical volume, two the
// members of a running RAID 1, all off the grain. A realignment, an Apply, a copy from the disk,
// a copy of one held partition and a copy onto the disk are each refused, naming each holder as
// cryptsetup, lvs and mdadm name it, and the disk is unchanged.
void TestGuestDesktop::heldPartitionsAreRefusedNamingTheHolder()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("sata512e"));
    const GuestDrive other = guestDrive(m_drives, QStringLiteral("scsi"));
    {
        FixtureWithoutAutomount quiet;
        const ToolResult table = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), d.node},
                                         "label: dos\n"
                                         "start=63, size=40000, type=83\n"
                                         "start=40063, size=40000, type=8e\n"
                                         "start=80063, size=40000, type=fd\n"
                                         "start=120063, size=40000, type=fd\n");
        QVERIFY2(table.ok(), qPrintable(table.describe()));
        settleUdev();
        const ToolResult luks = runTool(
            QStringLiteral("sh"),
            {QStringLiteral("-c"),
             QStringLiteral("printf pw | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 "
                            "--pbkdf-force-iterations 1000 %1 - && printf pw | cryptsetup open "
                            "%1 pw-secret -")
                 .arg(d.partition(1))});
        QVERIFY2(luks.ok(), qPrintable(luks.describe()));
        const ToolResult lvm = runTool(
            QStringLiteral("sh"),
            {QStringLiteral("-c"), QStringLiteral("pvcreate -q %1 && vgcreate -q pw-vg %1 && "
                                                  "lvcreate -q -y -L 8M -n data pw-vg")
                                       .arg(d.partition(2))});
        QVERIFY2(lvm.ok(), qPrintable(lvm.describe()));
        const ToolResult md =
            runTool(QStringLiteral("mdadm"),
                    {QStringLiteral("--create"), QStringLiteral("/dev/md/pwraid"),
                     QStringLiteral("--run"), QStringLiteral("--level=1"),
                     QStringLiteral("--raid-devices=2"), QStringLiteral("--metadata=1.2"),
                     QStringLiteral("--assume-clean"), d.partition(3), d.partition(4)});
        QVERIFY2(md.ok(), qPrintable(md.describe()));
    }
    const auto release = qScopeGuard([&] {
        runTool(QStringLiteral("mdadm"),
                {QStringLiteral("--stop"), QStringLiteral("/dev/md/pwraid")});
        runTool(QStringLiteral("vgchange"), {QStringLiteral("-an"), QStringLiteral("pw-vg")});
        runTool(QStringLiteral("cryptsetup"),
                {QStringLiteral("close"), QStringLiteral("pw-secret")});
    });
    // The names their own tools give them.
    QVERIFY(runTool(QStringLiteral("cryptsetup"),
                    {QStringLiteral("status"), QStringLiteral("pw-secret")})
                .ok());
    const ToolResult lvs =
        runTool(QStringLiteral("lvs"), {QStringLiteral("--noheadings"), QStringLiteral("-o"),
                                        QStringLiteral("vg_name,lv_name")});
    QVERIFY2(QString::fromUtf8(lvs.out).simplified() == QLatin1String("pw-vg data"),
             lvs.out.constData());
    const QString mdNode = QFileInfo(QStringLiteral("/dev/md/pwraid")).canonicalFilePath();
    QVERIFY2(mdNode.startsWith(QLatin1String("/dev/md")), qPrintable(mdNode));

    const QByteArray before = deviceSha256(d.node);
    const QString plan = m_dir.filePath(QStringLiteral("delete.json"));
    QFile planFile(plan);
    QVERIFY(planFile.open(QIODevice::WriteOnly));
    planFile.write(R"({"operations":[{"op":"delete","number":1},{"op":"delete","number":2},)"
                   R"({"op":"delete","number":3}]})");
    planFile.close();
    const QString mdName = QFileInfo(mdNode).fileName();
    const QList<QPair<QStringList, QStringList>> jobs{
        {{QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), d.node},
         {QStringLiteral("pw-secret"), QStringLiteral("pw-vg/data"), mdName}},
        {{QStringLiteral("apply"), QStringLiteral("--yes"), plan, d.node},
         {QStringLiteral("pw-secret"), QStringLiteral("pw-vg/data"), mdName}},
        {{QStringLiteral("copy"), QStringLiteral("--yes"), d.node, other.node},
         {QStringLiteral("pw-secret"), QStringLiteral("pw-vg/data"), mdName}},
        {{QStringLiteral("copy"), QStringLiteral("--yes"), d.node + QStringLiteral(":2"),
          other.node},
         {QStringLiteral("pw-vg/data")}},
        {{QStringLiteral("copy"), QStringLiteral("--yes"), other.node, d.node},
         {QStringLiteral("pw-secret"), QStringLiteral("pw-vg/data"), mdName}}};
    for (const auto &job : jobs) {
        const CliResult r = runCli(job.first, kJobMs);
        const QString said = QString::fromUtf8(r.out + r.err);
        QVERIFY2(r.exitCode != 0, qPrintable(job.first.join(' ') + QStringLiteral(": ") + said));
        for (const QString &holder : job.second)
            QVERIFY2(said.contains(holder),
                     qPrintable(job.first.join(' ') + QStringLiteral(": no '") + holder +
                                QStringLiteral("' in: ") + said));
        QCOMPARE(deviceSha256(d.node), before);
    }
}

// A plain user of this desktop (snaps' read-only loop devices attached by root, udisksd and an
// automounter running) realigns and copies an image of their own, without root: the loop
// devices the user may not open do not stop the busy check (sfdisk judges the result).
void TestGuestDesktop::aPlainUsersImagesBesideSnapLoops()
{
    const ToolResult loops =
        runTool(QStringLiteral("losetup"), {QStringLiteral("-l"), QStringLiteral("-n")});
    QVERIFY2(loops.out.count("/var/lib/snapd/snaps/") >= 3, loops.out.constData());
    TestUser user;
    QVERIFY2(user.create(QStringLiteral("pwdesk"), QStringLiteral("/bin/sh"),
                         QStringLiteral("/home/pwdesk")),
             qPrintable(user.error()));
    QVERIFY(QDir().mkpath(QStringLiteral("/home/pwdesk")));
    QVERIFY(runTool(QStringLiteral("chown"),
                    {QStringLiteral("pwdesk:"), QStringLiteral("/home/pwdesk")})
                .ok());
    const QString image = QStringLiteral("/home/pwdesk/practice.img");
    const QString copy = QStringLiteral("/home/pwdesk/copy.img");
    int step = 0;
    const auto asUser = [&](const QStringList &args) {
        // The user's own session: their HOME (backups go under it), not root's.
        const ToolResult r =
            runTool(QStringLiteral("setpriv"),
                    user.asUserArgs(QStringList{QStringLiteral("env"),
                                                QStringLiteral("HOME=/home/pwdesk"), cliPath()} +
                                    args),
                    {}, kJobMs);
        QFile log(QStringLiteral("as-user-%1.log").arg(++step));
        if (log.open(QIODevice::WriteOnly))
            log.write(r.command.toUtf8() + '\n' + r.out + r.err);
        return r;
    };
    ToolResult r = asUser({QStringLiteral("practice"), QStringLiteral("--size"),
                           QStringLiteral("64M"), QStringLiteral("gpt-34"), image});
    QVERIFY2(r.ok(), qPrintable(r.describe()));
    r = asUser(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), image});
    QVERIFY2(r.ok(), qPrintable(r.describe()));
    SfdiskTable t = SfdiskTable::read(image);
    QVERIFY2(t.ok && !t.partitions.isEmpty(), qPrintable(t.error));
    for (const SfdiskPartition &p : t.partitions)
        QCOMPARE(p.start % 2048, 0);
    QVERIFY(runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("64M"), copy})
                .ok());
    QVERIFY(runTool(QStringLiteral("chown"), {QStringLiteral("pwdesk:"), copy}).ok());
    r = asUser({QStringLiteral("copy"), QStringLiteral("--yes"), image, copy});
    QVERIFY2(r.ok(), qPrintable(r.describe()));
    t = SfdiskTable::read(copy);
    QVERIFY2(t.ok && !t.partitions.isEmpty(), qPrintable(t.error));
    for (const SfdiskPartition &p : t.partitions)
        QCOMPARE(p.start % 2048, 0);
}

QTEST_GUILESS_MAIN(TestGuestDesktop)
#include "tst_guestdesktop.moc"
