// Power-off refused for what is no USB drive, on this machine (which has none): a loop device
// and a partition node from the command line (exit 2, naming why), and from the root helper
// serving a user the test creates, which also refuses any parameter but "path" as bad params.
// The loop device is still attached afterwards (losetup). A USB stick really powered off is
// tested in the guest (tests/guest/guestpoweroff.cpp). A card reader's two disks behind one USB
// device, in a sysfs tree the test builds over two loop devices: the device is not removed while
// the disk not named is open exclusively by another process, and is when both are free.
#include "buildsetting.h"
#include "clirun.h"
#include "device/drivepoweroff.h"
#include "loopdevice.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace pwtest;
using partwise::canPowerOff;
using partwise::powerOffDrive;
using partwise::PowerOffResult;

class TestServePowerOff : public QObject
{
    Q_OBJECT

private slots:
    void whatIsNoUsbDriveIsRefused();
    void everyDiskOfTheUsbDeviceMustBeFree();

private:
    QTemporaryDir m_dir;
};

void TestServePowerOff::whatIsNoUsbDriveIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(buildSetting("PARTWISE_CLI"));
    const QString image = m_dir.filePath(QStringLiteral("disk.img"));
    QVERIFY(runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("8M"), image})
                .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nstart=2048, size=8192\n")
                .ok());
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(loop.addPartitions());
    const QList<QPair<QString, QString>> cli{
        {loop.path(), QStringLiteral("not a USB drive")},
        {loop.partitionNode(1), QStringLiteral("not a whole disk")},
        {image, QStringLiteral("not a whole disk")}};
    for (const auto &[target, said] : cli) {
        const CliResult r = runCli({QStringLiteral("power-off"), target});
        QVERIFY2(r.exitCode == 2 && QString::fromUtf8(r.err).contains(said),
                 qPrintable(target + QStringLiteral(": ") + r.describe()));
    }

    TestUser user;
    QVERIFY2(user.create(QStringLiteral("pwpoweroff"), QStringLiteral("/bin/sh"),
                         m_dir.filePath(QStringLiteral("home"))),
             qPrintable(user.error()));
    ServeClient helper(user.pkexecEnvironment());
    QVERIFY(helper.started());
    for (const QJsonObject &params :
         {QJsonObject{{"path", loop.path()}, {"partition", 1}},
          QJsonObject{{"path", loop.path()}, {"force", true}}, QJsonObject{{"path", 7}}}) {
        const QJsonObject answer = helper.call(QStringLiteral("power-off"), params);
        QVERIFY2(errorCodeOf(answer) == -32602, qPrintable(describe(answer)));
    }
    const QJsonObject refused = helper.call(QStringLiteral("power-off"), {{"path", loop.path()}});
    QVERIFY2(errorCodeOf(refused) == -32001 && describe(refused).contains("not a USB drive"),
             qPrintable(describe(refused)));
    QVERIFY(helper.closeAndWait());
    user.remove();
    QVERIFY(runTool(QStringLiteral("losetup"), {loop.path()}).ok()); // still attached
}

namespace {

bool writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

bool link(const QString &target, const QString &at)
{
    QDir().mkpath(QFileInfo(at).path());
    return QFile::link(target, at);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("unreadable");
}

// The kernel's "major:minor" of a device node.
QString devNumber(const QString &node)
{
    struct stat st;
    if (::stat(QFile::encodeName(node).constData(), &st) != 0)
        return {};
    return QStringLiteral("%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev));
}

} // namespace

// sysfs as the kernel lays out a card reader with two slots (LUNs 0 and 1 of one USB mass
// storage device): /sys/block and /sys/dev/block link to the disks under the USB device.
void TestServePowerOff::everyDiskOfTheUsbDeviceMustBeFree()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    const QString sys = m_dir.filePath(QStringLiteral("sys"));
    const QString usb = sys + QStringLiteral("/devices/pci0000:00/0000:00:14.0/usb2/2-1");
    QVERIFY(writeFile(usb + QStringLiteral("/idVendor"), "14cd\n"));
    QVERIFY(writeFile(usb + QStringLiteral("/remove"), ""));
    std::vector<std::unique_ptr<LoopDevice>> loops;
    QStringList deletes;
    for (int lun = 0; lun < 2; ++lun) {
        const QString image = m_dir.filePath(QStringLiteral("slot%1.img").arg(lun));
        QVERIFY(
            runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("1M"), image})
                .ok());
        loops.push_back(std::make_unique<LoopDevice>(image));
        QVERIFY2(loops.back()->ok(), qPrintable(loops.back()->error()));
        const QString node = loops.back()->path();
        const QString name = QFileInfo(node).fileName();
        const QString scsi = usb + QStringLiteral("/2-1:1.0/host7/target7:0:0/7:0:0:%1").arg(lun);
        const QString disk = scsi + QStringLiteral("/block/") + name;
        QVERIFY(writeFile(disk + QStringLiteral("/dev"), devNumber(node).toUtf8() + '\n'));
        QVERIFY(writeFile(scsi + QStringLiteral("/delete"), ""));
        deletes << scsi + QStringLiteral("/delete");
        QVERIFY(link(scsi, disk + QStringLiteral("/device")));
        QVERIFY(link(disk, sys + QStringLiteral("/block/") + name));
        QVERIFY(link(disk, sys + QStringLiteral("/dev/block/") + devNumber(node)));
    }
    const QString named = loops[0]->path();
    const QString other = loops[1]->path();
    QString why;
    QVERIFY2(canPowerOff(named, &why, sys), qPrintable(why));

    // Another process holds the other slot's disk (as a mount or a mapping would).
    const int held = ::open(QFile::encodeName(other).constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
    QVERIFY(held >= 0);
    PowerOffResult result = powerOffDrive(named, sys);
    ::close(held);
    QVERIFY2(!result.ok && result.refused &&
                 result.error.contains(other + QStringLiteral(" is in use")),
             qPrintable(result.error));
    QCOMPARE(readFile(usb + QStringLiteral("/remove")), QByteArray());
    QCOMPARE(readFile(deletes[0]), QByteArray());

    result = powerOffDrive(named, sys);
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(readFile(deletes[0]), QByteArray("1"));
    QCOMPARE(readFile(usb + QStringLiteral("/remove")), QByteArray("1"));
}

QTEST_GUILESS_MAIN(TestServePowerOff)
#include "tst_servepoweroff.moc"
