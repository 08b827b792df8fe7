// The desktop's storage stack around Partwise, in the test guest (tests/support/guest): udiskie
// automounting the USB stick as a session's automounter does, through udisksd, while Partwise
// moves its partitions; and partitions held by device-mapper (an open LUKS mapping, an active
// LVM volume) and md (a RAID member), which every job must refuse, naming the holder as its
// owner knows it; LUKS partitions unlocked and locked; a drive unplugged and plugged back while
// the disk monitor listens. Judged by the guest's own tools: /proc/self/mounts sampled through
// the job, findmnt, sfdisk, fsck, cryptsetup status, dmsetup, blkid, lsblk, lvs, mdadm.
#include "../serve/serveclient.h"
#include "automountpause.h"
#include "clirun.h"
#include "guestdesktop.h"
#include "guestdrives.h"
#include "guestfixture.h"
#include "sfdisktable.h"
#include "testuser.h"
#include "toolrun.h"
#include "watchprocess.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <atomic>

using namespace pwtest;

namespace {

constexpr int kJobMs = 600000;
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

namespace {

bool writeSysfs(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() && f.flush();
}

// The drive of serial `serial` as lsblk lists it now: {path, size}; empty when it is not there.
QPair<QString, qint64> lsblkDrive(const QString &serial)
{
    const ToolResult r = runTool(QStringLiteral("lsblk"),
                                 {QStringLiteral("-J"), QStringLiteral("-d"), QStringLiteral("-b"),
                                  QStringLiteral("-o"), QStringLiteral("PATH,SERIAL,SIZE")});
    const QJsonArray devices =
        QJsonDocument::fromJson(r.out).object().value(QStringLiteral("blockdevices")).toArray();
    for (const QJsonValue &device : devices) {
        const QJsonObject o = device.toObject();
        if (o.value(QStringLiteral("serial")).toString() == serial)
            return {o.value(QStringLiteral("path")).toString(),
                    o.value(QStringLiteral("size")).toInteger()};
    }
    return {};
}

} // namespace

QString TestGuestDesktop::lsblkDriveNode(const QString &serial)
{
    return lsblkDrive(serial).first;
}

// LUKS2 and LUKS1 partitions made by cryptsetup luksFormat, an ext4 inside each, unlocked by
// `partwise-cli unlock` (the passphrase on standard input; for LUKS1 a key file) and locked by
// `partwise-cli lock`. cryptsetup status, dmsetup ls and blkid judge: the mapping is
// luks-UUID (cryptsetup luksUUID's) over that partition, the ext4 inside is found, a wrong
// passphrase opens nothing, and the passphrase appears in nothing Partwise prints (an open
// mapping refusing every write is heldPartitionsAreRefusedNamingTheHolder's). The automounter is
// kept off the drive throughout: an unlocked ext4 it mounted would (rightly) stop the lock.
void TestGuestDesktop::luksUnlockedAndLockedAgain()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("sata512"));
    QVERIFY(!d.node.isEmpty());
    const QByteArray secret = "pw-guest-Secret 42";
    FixtureWithoutAutomount quiet;
    const ToolResult table = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), d.node},
                                     "label: gpt\nstart=2048, size=65536\nstart=67584, "
                                     "size=65536\n");
    QVERIFY2(table.ok(), qPrintable(table.describe()));
    settleUdev();
    // The test's own key file makes the volumes (cryptsetup reads a "-" key file to its end).
    const QString keyFile = m_dir.filePath(QStringLiteral("luks.key"));
    QFile key(keyFile);
    QVERIFY(key.open(QIODevice::WriteOnly) && key.write(secret) == secret.size());
    key.close();
    const QStringList versions{QStringLiteral("luks2"), QStringLiteral("luks1")};
    for (int n = 1; n <= 2; ++n) {
        const ToolResult made = runTool(
            QStringLiteral("sh"),
            {QStringLiteral("-c"),
             QStringLiteral("cryptsetup luksFormat -q --type %2 --pbkdf pbkdf2 "
                            "--pbkdf-force-iterations 1000 --key-file %3 %1 && cryptsetup open "
                            "--key-file %3 %1 pwmake && mkfs.ext4 -q -L pw%2 /dev/mapper/pwmake; "
                            "cryptsetup close pwmake")
                 .arg(d.partition(n), versions.at(n - 1), keyFile)});
        QVERIFY2(made.ok(), qPrintable(made.describe()));
    }
    const auto closeAll = qScopeGuard([&] {
        for (int n = 1; n <= 2; ++n)
            runTool(cliPath(), {QStringLiteral("lock"), d.node, QString::number(n)});
    });
    QElapsedTimer clock;
    clock.start();
    const auto dmsetupLs = [] {
        return QString::fromUtf8(runTool(QStringLiteral("dmsetup"), {QStringLiteral("ls")}).out);
    };

    for (int n = 1; n <= 2; ++n) {
        const QString part = d.partition(n);
        const QString uuid = QString::fromUtf8(
            runTool(QStringLiteral("cryptsetup"), {QStringLiteral("luksUUID"), part})
                .out.trimmed());
        const QString name = QStringLiteral("luks-") + uuid;
        const QString mapped = dmsetupLs();
        ToolResult wrong =
            runTool(cliPath(), {QStringLiteral("unlock"), d.node, QString::number(n)},
                    "not the passphrase\n");
        QCOMPARE(wrong.exitCode, 1);
        QCOMPARE(dmsetupLs(), mapped);

        const QStringList unlockArgs =
            n == 1 ? QStringList{QStringLiteral("unlock"), QStringLiteral("--json"), d.node,
                                 QStringLiteral("1")}
                   : QStringList{QStringLiteral("unlock"),
                                 QStringLiteral("--json"),
                                 QStringLiteral("--key-file"),
                                 keyFile,
                                 d.node,
                                 QStringLiteral("2")};
        const ToolResult opened = runTool(cliPath(), unlockArgs, n == 1 ? secret + '\n' : "");
        QVERIFY2(opened.ok(), qPrintable(opened.describe()));
        QVERIFY(!opened.out.contains(secret) && !opened.err.contains(secret));
        const QJsonObject said = QJsonDocument::fromJson(opened.out).object();
        QCOMPARE(said.value(QStringLiteral("mapping")).toString(), name);
        QCOMPARE(said.value(QStringLiteral("filesystem")).toString(), QStringLiteral("ext4"));
        const ToolResult status =
            runTool(QStringLiteral("cryptsetup"), {QStringLiteral("status"), name});
        QVERIFY2(status.ok(), qPrintable(status.describe()));
        QVERIFY2(status.out.contains(("device:  " + part).toUtf8()), status.out.constData());
        QVERIFY2(status.out.contains(("type:    " + versions.at(n - 1).toUpper()).toUtf8()),
                 status.out.constData());
        QVERIFY(dmsetupLs().contains(name));
        const ToolResult label =
            runTool(QStringLiteral("blkid"),
                    {QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                     QStringLiteral("LABEL"), QStringLiteral("/dev/mapper/") + name});
        QCOMPARE(QString::fromUtf8(label.out.trimmed()), QStringLiteral("pw") + versions.at(n - 1));
        QCOMPARE(runTool(cliPath(), unlockArgs, secret + '\n').exitCode, 2); // unlocked already

        const ToolResult locked =
            runTool(cliPath(), {QStringLiteral("lock"), d.node, QString::number(n)});
        QVERIFY2(locked.ok(), qPrintable(locked.describe()));
        QVERIFY(!runTool(QStringLiteral("cryptsetup"), {QStringLiteral("status"), name}).ok());
        QVERIFY(!dmsetupLs().contains(name));
        QCOMPARE(runTool(cliPath(), {QStringLiteral("lock"), d.node, QString::number(n)}).exitCode,
                 2);
    }

    qInfo("unlocked and locked by the CLI after %lld ms", clock.elapsed());
    // Through the root helper for a user of this desktop (PKEXEC_UID, as pkexec starts it): the
    // passphrase only in the request; a mapping the system opened is not the user's to close.
    TestUser user;
    QVERIFY2(user.create(QStringLiteral("pwcrypt"), QStringLiteral("/bin/sh"),
                         QStringLiteral("/home/pwcrypt")),
             qPrintable(user.error()));
    ServeClient helper(user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QString uuid = QString::fromUtf8(
        runTool(QStringLiteral("cryptsetup"), {QStringLiteral("luksUUID"), d.partition(1)})
            .out.trimmed());
    QJsonObject answer = helper.call(
        QStringLiteral("unlock"),
        {{"path", d.node}, {"partition", 1}, {"passphrase", QString::fromUtf8(secret)}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QCOMPARE(resultOf(answer).value(QStringLiteral("mapping")).toString(),
             QStringLiteral("luks-") + uuid);
    QCOMPARE(resultOf(answer).value(QStringLiteral("filesystem")).toString(),
             QStringLiteral("ext4"));
    QVERIFY(runTool(QStringLiteral("cryptsetup"),
                    {QStringLiteral("status"), QStringLiteral("luks-") + uuid})
                .ok());
    answer = helper.call(QStringLiteral("lock"), {{"path", d.node}, {"partition", 1}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QVERIFY(!runTool(QStringLiteral("cryptsetup"),
                     {QStringLiteral("status"), QStringLiteral("luks-") + uuid})
                 .ok());
    const ToolResult system = runTool(
        QStringLiteral("cryptsetup"),
        {QStringLiteral("open"), d.partition(2), QStringLiteral("pw-system"), QStringLiteral("-")},
        secret);
    QVERIFY2(system.ok(), qPrintable(system.describe()));
    answer = helper.call(QStringLiteral("lock"), {{"path", d.node}, {"partition", 2}});
    QCOMPARE(errorCodeOf(answer), -32001);
    QVERIFY(runTool(QStringLiteral("cryptsetup"),
                    {QStringLiteral("status"), QStringLiteral("pw-system")})
                .ok());
    runTool(QStringLiteral("cryptsetup"), {QStringLiteral("close"), QStringLiteral("pw-system")});
    QVERIFY(helper.closeAndWait());
    QVERIFY(!helper.standardError().contains(secret));
    user.remove();
    qInfo("through the helper after %lld ms", clock.elapsed());
}

// The SCSI drive unplugged and plugged back as the kernel does it (its sysfs delete, then a
// rescan of its host) while `partwise-cli watch` listens to udev's events and, beside it, to the
// kernel's own (what a system without udevd has): both report it removed, then added under the
// node lsblk finds by its serial, with the size QEMU was told (drives.conf).
void TestGuestDesktop::driveUnpluggedAndPluggedBack()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("scsi"));
    QVERIFY(!d.node.isEmpty());
    const QString scsiDevice =
        QFileInfo(QStringLiteral("/sys/block/%1/device").arg(d.node.section(u'/', -1)))
            .canonicalFilePath();
    const QString host =
        QRegularExpression(QStringLiteral("/(host[0-9]+)/")).match(scsiDevice).captured(1);
    QVERIFY2(!host.isEmpty(), qPrintable(scsiDevice));
    WatchProcess udev({QStringLiteral("--source"), QStringLiteral("udev")});
    QVERIFY2(udev.ok(), qPrintable(udev.error()));
    WatchProcess kernel({QStringLiteral("--source"), QStringLiteral("kernel")});
    QVERIFY2(kernel.ok(), qPrintable(kernel.error()));
    for (const WatchProcess *watch : {&udev, &kernel})
        QVERIFY2(watch->listening()
                     .value(QStringLiteral("disks"))
                     .toArray()
                     .contains(QJsonValue(d.node)),
                 qPrintable(watch->transcript()));

    QVERIFY(writeSysfs(scsiDevice + QStringLiteral("/delete"), "1"));
    for (WatchProcess *watch : {&udev, &kernel}) {
        const QJsonObject removed = watch->waitFor(watchEvent(QStringLiteral("removed"), d.node));
        QVERIFY2(!removed.isEmpty(), qPrintable(watch->transcript()));
    }
    settleUdev();
    QVERIFY(lsblkDrive(d.serial).first.isEmpty());

    QVERIFY(writeSysfs(QStringLiteral("/sys/class/scsi_host/%1/scan").arg(host), "- - -"));
    settleUdev();
    const QPair<QString, qint64> back = lsblkDrive(d.serial);
    QVERIFY2(!back.first.isEmpty(), "the rescan did not bring the drive back");
    QCOMPARE(back.second, d.sizeBytes);
    for (WatchProcess *watch : {&udev, &kernel}) {
        const QJsonObject added = watch->waitFor(watchEvent(QStringLiteral("added"), back.first));
        QVERIFY2(!added.isEmpty(), qPrintable(watch->transcript()));
        QCOMPARE(qint64(added.value(QStringLiteral("size_bytes")).toDouble()), back.second);
    }
}

QTEST_GUILESS_MAIN(TestGuestDesktop)
