// The power-off case of guest_desktop (last: the stick is gone afterwards): a USB stick powered
// off by `partwise-cli power-off`, judged by lsblk and the kernel's USB device list.
#include "automountpause.h"
#include "clirun.h"
#include "guestdesktop.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace pwtest;

namespace {

// The kernel's USB devices whose serial is `serial` (/sys/bus/usb/devices/*/serial).
QStringList usbDevicesWithSerial(const QString &serial)
{
    QStringList found;
    const QDir devices(QStringLiteral("/sys/bus/usb/devices"));
    for (const QString &name : devices.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(devices.filePath(name) + QStringLiteral("/serial"));
        if (f.open(QIODevice::ReadOnly) && QString::fromUtf8(f.readAll()).trimmed() == serial)
            found << name;
    }
    return found;
}

} // namespace

// A SATA drive is refused as no USB drive; the stick is refused while a partition of it is
// mounted (naming the mount); unmounted, it is powered off: lsblk lists it no more, and the
// kernel has no USB device of its serial.
void TestGuestDesktop::usbStickPoweredOff()
{
    const GuestDrive stick = guestDrive(m_drives, QStringLiteral("usbstick"));
    const GuestDrive sata = guestDrive(m_drives, QStringLiteral("sata512"));
    QVERIFY(!stick.node.isEmpty() && !sata.node.isEmpty());
    QCOMPARE(usbDevicesWithSerial(stick.serial).size(), 1);
    // The automounter stays away from the new filesystem: one it mounted after the unmount
    // below (as it did once, at /media/root/UUID) rightly stops the power-off.
    FixtureWithoutAutomount quiet;
    const CliResult notUsb = runCli({QStringLiteral("power-off"), sata.node});
    QCOMPARE(notUsb.exitCode, 2);
    QVERIFY2(notUsb.err.contains("not a USB drive"), qPrintable(notUsb.describe()));

    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), stick.node},
                    "label: dos\nstart=2048, size=20480, type=83\n")
                .ok());
    settleUdev();
    for (const QString &mount : mountsOf(stick.node))
        runTool(QStringLiteral("umount"), {mount.section(u' ', 1, 1)});
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), stick.partition(1)})
                .ok());
    settleUdev();
    const QString folder = m_dir.filePath(QStringLiteral("stick"));
    QDir().mkpath(folder);
    if (mountsOf(stick.node).isEmpty()) // the automounter may have been first
        QVERIFY(runTool(QStringLiteral("mount"), {stick.partition(1), folder}).ok());
    const QStringList mounted = mountsOf(stick.node);
    QVERIFY(!mounted.isEmpty());
    const CliResult busy = runCli({QStringLiteral("power-off"), stick.node});
    QCOMPARE(busy.exitCode, 2);
    QVERIFY2(busy.err.contains("in use"), qPrintable(busy.describe()));
    QVERIFY(!lsblkDriveNode(stick.serial).isEmpty());
    for (const QString &mount : mounted)
        QVERIFY(runTool(QStringLiteral("umount"), {mount.section(u' ', 1, 1)}).ok());

    const CliResult off =
        runCli({QStringLiteral("power-off"), QStringLiteral("--json"), stick.node});
    QVERIFY2(off.exitCode == 0 && off.json.value(QStringLiteral("powered_off")).toBool(),
             qPrintable(off.describe()));
    settleUdev();
    QVERIFY(lsblkDriveNode(stick.serial).isEmpty());
    QVERIFY2(usbDevicesWithSerial(stick.serial).isEmpty(),
             qPrintable(usbDevicesWithSerial(stick.serial).join(' ')));
}
