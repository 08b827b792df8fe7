// Partwise on a real kernel with real (emulated) drives: a SATA 512e drive whose IDENTIFY says
// 4096-byte physical sectors, a SATA 512/512 one (an older drive, or a lying one), an NVMe 4Kn
// namespace, a USB stick and a SCSI disk, with udevd, udisksd and an automounter running
// (tests/support/guest/guest-init). This suite runs inside that guest (guest-run boots it once
// for all its cases); what QEMU was told (drives.conf) and what the guest's own tools read
// (lsblk, sfdisk, e2fsck, fsck.fat, /sys/class/block/*/start, findmnt, swapon) are the
// expected values. Each drive starts empty at boot, and each case builds its own layout.
#include "../serve/serveclient.h"
#include "clirun.h"
#include "guestdrives.h"
#include "guestfixture.h"
#include "guesthotplug.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

// A hang, not a slow machine: every job here moves a few tens of MiB under emulation.
constexpr int kJobMs = 600000;

QString expectedProtocol(const QString &bus)
{
    if (bus == QLatin1String("sata"))
        return QStringLiteral("ATA");
    if (bus == QLatin1String("nvme"))
        return QStringLiteral("NVMe");
    return QStringLiteral("SCSI");
}

bool writePlan(const QString &path, const QByteArray &json)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(json) == json.size();
}

QString findmnt(const QString &source)
{
    const ToolResult r = runTool(QStringLiteral("findmnt"),
                                 {QStringLiteral("-n"), QStringLiteral("-o"),
                                  QStringLiteral("TARGET"), QStringLiteral("--source"), source});
    return QString::fromUtf8(r.out).trimmed();
}

bool swapIsOn(const QString &node)
{
    const ToolResult r = runTool(QStringLiteral("swapon"),
                                 {QStringLiteral("--show=NAME"), QStringLiteral("--noheadings")});
    return QString::fromUtf8(r.out).split(QLatin1Char('\n')).contains(node);
}

} // namespace

class TestGuestDrives : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void drivesReportWhatQemuWasTold();
    void realignKilledAndResumedOnSata512e();
    void realignOnNvme4Kn();
    void copyBetweenDrives();
    void applyTheKernelRescans();
    void mountUnmountAndSwapThroughTheHelper();
    void hotPlugWithTheWindowOpen();

private:
    QList<GuestDrive> m_drives;
    QTemporaryDir m_dir{QStringLiteral("/var/tmp/pw-guest-test.XXXXXX")};
};

void TestGuestDrives::initTestCase()
{
    QString error;
    m_drives = guestDrives(&error);
    QVERIFY2(!m_drives.isEmpty(), qPrintable(error));
    QVERIFY(m_dir.isValid());
    setCliPath(qEnvironmentVariable("PARTWISE_CLI"));
    for (const GuestDrive &d : std::as_const(m_drives))
        qInfo("%s on %s: %s", qPrintable(d.name), qPrintable(d.bus), qPrintable(d.node));
}

// `check` reads each drive as the kernel and the drive itself describe it: the sector sizes
// QEMU was told, and the drive's own answer (ATA IDENTIFY through smartctl, NVMe Identify) with
// its serial number. A drive that reports 512-byte physical sectors is assumed 4096.
void TestGuestDrives::drivesReportWhatQemuWasTold()
{
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json")}, kJobMs);
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    for (const GuestDrive &d : std::as_const(m_drives)) {
        const QJsonObject dev = r.device(d.node);
        QVERIFY2(!dev.isEmpty(), qPrintable(d.node + QStringLiteral(" is not listed")));
        const QJsonObject drive = dev[QStringLiteral("drive")].toObject();
        qInfo("%s (%s): logical %d, physical reported %d, assumed %d; the drive said: answered %d, "
              "model '%s', serial '%s', protocol %s, logical %d, physical %d",
              qPrintable(d.name), qPrintable(d.node), dev["logical_sector_size"].toInt(),
              dev["physical_sector_size_reported"].toInt(),
              dev["physical_sector_size_assumed"].toInt(), drive["answered"].toBool(),
              qPrintable(drive["model"].toString()), qPrintable(drive["serial"].toString()),
              qPrintable(drive["protocol"].toString()), drive["logical_block_size"].toInt(),
              drive["physical_block_size"].toInt());
        QCOMPARE(dev[QStringLiteral("size_bytes")].toInteger(), d.sizeBytes);
        QCOMPARE(dev[QStringLiteral("logical_sector_size")].toInt(), d.logical);
        QCOMPARE(dev[QStringLiteral("physical_sector_size_reported")].toInt(), d.physical);
        QCOMPARE(dev[QStringLiteral("physical_sector_size_assumed")].toInt(),
                 qMax(d.physical, 4096));
        if (d.bus == QLatin1String("usb") && !drive[QStringLiteral("answered")].toBool())
            continue; // a USB bridge need not pass SCSI/ATA commands on
        QVERIFY2(drive[QStringLiteral("answered")].toBool(), qPrintable(d.name));
        QCOMPARE(drive[QStringLiteral("serial")].toString(), d.serial);
        QCOMPARE(drive[QStringLiteral("protocol")].toString(), expectedProtocol(d.bus));
        if (d.model != QLatin1String("-"))
            QVERIFY2(drive[QStringLiteral("model")].toString().contains(d.model),
                     qPrintable(drive[QStringLiteral("model")].toString()));
        if (d.bus == QLatin1String("usb"))
            continue;
        QCOMPARE(drive[QStringLiteral("logical_block_size")].toInt(), d.logical);
        // NVMe's Identify Namespace states a physical size only through its optional NPWG/NAWUPF
        // fields, which QEMU leaves out: no answer, never a wrong one.
        if (d.bus != QLatin1String("nvme") ||
            !drive[QStringLiteral("physical_block_size")].isNull())
            QCOMPARE(drive[QStringLiteral("physical_block_size")].toInt(), d.physical);
    }
}

// The classic XP layout on a 512e drive, realigned with udevd and udisksd watching, killed in
// its first move and finished by `resume`: every partition lands on the grain as
// sfdisk reads it, the kernel's own rescan places each partition there too (no stand-in: the
// guest kernel reads the table), and every file of both filesystems is unchanged.
void TestGuestDrives::realignKilledAndResumedOnSata512e()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("sata512e"));
    const QList<GuestPartition> parts{{1, QStringLiteral("ext4"), 150, 24 << 20},
                                      {2, QStringLiteral("ext4"), 60, 4 << 20}};
    QString error;
    const auto files = buildLayout(d.node,
                                   QStringLiteral("label: dos\n"
                                                  "start=63, size=163840, type=83\n"
                                                  "start=170000, size=100000, type=83\n"),
                                   parts, m_dir.path(), &error);
    QVERIFY2(!files.isEmpty(), qPrintable(error));

    int code = -1;
    const bool killed = runCliKilledAfterLine(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), d.node},
        QByteArrayLiteral("moving the "), 0, &code);
    QVERIFY2(
        killed,
        qPrintable(QStringLiteral("the realignment ended (exit %1) before the kill").arg(code)));
    // Killed as its first move began: the second partition is still where it was.
    QCOMPARE(SfdiskTable::read(d.node).partitions.value(1).start, 170000);
    const CliResult resumed = runCli({QStringLiteral("resume"), d.node}, kJobMs);
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.describe()));
    settleUdev();

    const SfdiskTable after = SfdiskTable::read(d.node);
    QVERIFY2(after.ok && after.partitions.size() == 2, qPrintable(after.error));
    for (const SfdiskPartition &p : after.partitions) {
        QCOMPARE(p.start % 2048, 0);
        QCOMPARE(kernelStart(p.node, d.logical), p.start);
    }
    const QStringList problems = compareLayout(d.node, parts, files);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// A 4Kn NVMe namespace with GPT's first usable sector (6) as the start of an ext4: realigned to
// the grain in 4096-byte sectors (256), and the kernel agrees.
void TestGuestDrives::realignOnNvme4Kn()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("nvme4kn"));
    QCOMPARE(d.logical, 4096);
    const QList<GuestPartition> parts{{1, QStringLiteral("ext4"), 80, 8 << 20}};
    QString error;
    const auto files = buildLayout(
        d.node, QStringLiteral("label: gpt\nfirst-lba: 6\nstart=6, size=16384, type=linux\n"),
        parts, m_dir.path(), &error);
    QVERIFY2(!files.isEmpty(), qPrintable(error));
    QCOMPARE(SfdiskTable::read(d.node).partitions.value(0).start, 6);

    const CliResult r = runCli(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), d.node},
        kJobMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    settleUdev();
    const SfdiskTable after = SfdiskTable::read(d.node);
    QVERIFY2(after.ok && after.partitions.size() == 1, qPrintable(after.error));
    QCOMPARE(after.partitions[0].start, 256);
    QCOMPARE(kernelStart(after.partitions[0].node, 4096), 256);
    const QStringList problems = compareLayout(d.node, parts, files);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// Disk to disk: a 512/512 SATA drive onto the SCSI disk, every partition on the grain with its
// files; onto the 4Kn NVMe namespace the copy is refused with its reason (512-byte sectors onto
// 4096), and nothing of the NVMe changes.
void TestGuestDrives::copyBetweenDrives()
{
    const GuestDrive source = guestDrive(m_drives, QStringLiteral("sata512"));
    const GuestDrive target = guestDrive(m_drives, QStringLiteral("scsi"));
    const GuestDrive nvme = guestDrive(m_drives, QStringLiteral("nvme4kn"));
    const QList<GuestPartition> parts{{1, QStringLiteral("ext4"), 80, 6 << 20},
                                      {2, QStringLiteral("vfat"), 40, 2 << 20}};
    QString error;
    const auto files = buildLayout(source.node,
                                   QStringLiteral("label: dos\n"
                                                  "start=63, size=80000, type=83\n"
                                                  "start=80063, size=60000, type=c\n"),
                                   parts, m_dir.path(), &error);
    QVERIFY2(!files.isEmpty(), qPrintable(error));

    const QByteArray nvmeBefore = deviceSha256(nvme.node);
    const CliResult refused =
        runCli({QStringLiteral("copy"), QStringLiteral("--yes"), source.node, nvme.node}, kJobMs);
    QVERIFY2(refused.exitCode != 0, qPrintable(refused.describe()));
    const QString said = QString::fromUtf8(refused.out + refused.err);
    QVERIFY2(said.contains(QLatin1String("4096")) && said.contains(QLatin1String("512")),
             qPrintable(said));
    QCOMPARE(deviceSha256(nvme.node), nvmeBefore);

    const CliResult copied =
        runCli({QStringLiteral("copy"), QStringLiteral("--yes"), source.node, target.node}, kJobMs);
    QVERIFY2(copied.exitCode == 0, qPrintable(copied.describe()));
    settleUdev();
    const SfdiskTable table = SfdiskTable::read(target.node);
    QVERIFY2(table.ok && table.partitions.size() == 2, qPrintable(table.error));
    for (const SfdiskPartition &p : table.partitions) {
        QCOMPARE(p.start % 2048, 0);
        QCOMPARE(kernelStart(p.node, 512), p.start);
    }
    QStringList problems = compareLayout(target.node, parts, files);
    problems << compareLayout(source.node, parts, files);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// An Apply on a drive the kernel already knows: a new table with an ext4 and a swap partition.
// The kernel takes the new table itself; udev makes the nodes, and blkid finds what mkfs and
// mkswap wrote there.
void TestGuestDrives::applyTheKernelRescans()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("sata512e"));
    const QString plan = m_dir.filePath(QStringLiteral("plan.json"));
    QVERIFY(writePlan(plan, R"({"operations":[{"op":"new-table","type":"gpt"},)"
                            R"({"op":"create","size":"48MiB","fs":"ext4","label":"data"},)"
                            R"({"op":"create","size":"16MiB","fs":"swap"}]})"));
    const CliResult r =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), plan, d.node}, kJobMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    settleUdev();
    const SfdiskTable t = SfdiskTable::read(d.node);
    QVERIFY2(t.ok && t.partitions.size() == 2, qPrintable(t.error));
    const QStringList types{QStringLiteral("ext4"), QStringLiteral("swap")};
    for (int i = 0; i < 2; ++i) {
        const SfdiskPartition &p = t.partitions[i];
        QCOMPARE(p.start % 2048, 0);
        QVERIFY2(QFile::exists(p.node), qPrintable(p.node + QStringLiteral(": no node")));
        QCOMPARE(kernelStart(p.node, 512), p.start);
        const ToolResult blkid = runTool(QStringLiteral("blkid"),
                                         {QStringLiteral("-o"), QStringLiteral("value"),
                                          QStringLiteral("-s"), QStringLiteral("TYPE"), p.node});
        QCOMPARE(QString::fromUtf8(blkid.out).trimmed(), types[i]);
    }
}

// The window's helper mounts, unmounts, turns swap on and off on a real drive (root's session,
// as `sudo partwise` runs it): findmnt and swapon are the judges. Uses the drive
// applyTheKernelRescans laid out.
void TestGuestDrives::mountUnmountAndSwapThroughTheHelper()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("sata512e"));
    QVERIFY2(QFile::exists(d.partition(2)), "applyTheKernelRescans made no partitions");
    ServeClient helper;
    QVERIFY(helper.started());
    const QString folder = m_dir.filePath(QStringLiteral("m"));
    QVERIFY(QDir().mkpath(folder));
    QJsonObject a = helper.call(QStringLiteral("mount"), {{QStringLiteral("path"), d.node},
                                                          {QStringLiteral("partition"), 1},
                                                          {QStringLiteral("folder"), folder}});
    QVERIFY2(errorCodeOf(a) == 0, qPrintable(describe(a)));
    QCOMPARE(findmnt(d.partition(1)), folder);
    a = helper.call(QStringLiteral("unmount"),
                    {{QStringLiteral("path"), d.node}, {QStringLiteral("partition"), 1}});
    QVERIFY2(errorCodeOf(a) == 0, qPrintable(describe(a)));
    QCOMPARE(findmnt(d.partition(1)), QString());

    a = helper.call(QStringLiteral("swapon"),
                    {{QStringLiteral("path"), d.node}, {QStringLiteral("partition"), 2}});
    QVERIFY2(errorCodeOf(a) == 0, qPrintable(describe(a)));
    QVERIFY(swapIsOn(d.partition(2)));
    a = helper.call(QStringLiteral("swapoff"),
                    {{QStringLiteral("path"), d.node}, {QStringLiteral("partition"), 2}});
    QVERIFY2(errorCodeOf(a) == 0, qPrintable(describe(a)));
    QVERIFY(!swapIsOn(d.partition(2)));
}

// Drives plugged and unplugged through QEMU's monitor while the window is open, with a queue
// pending on the one unplugged (guesthotplug.cpp). Screenshots go to the guest's results, which
// guest-run copies to the suite's log folder.
void TestGuestDrives::hotPlugWithTheWindowOpen()
{
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("config"))));
    pwtest::hotPlugWithTheWindowOpen(QDir::current().filePath(QStringLiteral("screenshots")));
}

QTEST_MAIN(TestGuestDrives)
#include "tst_guestdrives.moc"
