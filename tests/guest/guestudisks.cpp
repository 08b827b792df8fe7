// The udisks2 case of guest_desktop: the window's Mount, Unmount and Power Off (its own
// PartitionMounter, run by partwise-test-mountroute) as a desktop user in the active session, with
// polkit's default rules: udisks2 does them, and no administrator's password is asked (none could
// be: no agent runs, and no helper either). Outside the session udisks2 refuses, and where it is
// absent, the helper's way is taken. Judged by findmnt, lsblk and the kernel's USB devices.
#include "automountpause.h"
#include "guestdesktop.h"
#include "guestsession.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QtTest>

#include <functional>

using namespace pwtest;

namespace {

const QString kUser = QStringLiteral("pwstick");

QJsonObject answerOf(const ToolResult &run)
{
    return QJsonDocument::fromJson(run.out.trimmed().split('\n').value(0)).object();
}

// findmnt's TARGET and OPTIONS of `node`; empty when it is not mounted.
QStringList mountOf(const QString &node)
{
    const ToolResult found = runTool(
        QStringLiteral("findmnt"), {QStringLiteral("-n"), QStringLiteral("-o"),
                                    QStringLiteral("TARGET,OPTIONS"), QStringLiteral("-S"), node});
    return QString::fromUtf8(found.out).simplified().split(u' ', Qt::SkipEmptyParts);
}

QString route()
{
    return qEnvironmentVariable("PARTWISE_MOUNTROUTE");
}

// No system bus for the program: udisks2 is absent to it.
QStringList withoutBus(const QStringList &command)
{
    return QStringList{QStringLiteral("env"),
                       QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS=unix:path=/run/pw-no-bus")} +
           command;
}

// The root hub ("usb2") of the USB device whose serial is `serial`; empty when none.
QString rootHubOf(const QString &serial)
{
    const QDir devices(QStringLiteral("/sys/bus/usb/devices"));
    for (const QString &name : devices.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(devices.filePath(name) + QStringLiteral("/serial"));
        if (f.open(QIODevice::ReadOnly) && QString::fromUtf8(f.readAll()).trimmed() == serial)
            return QStringLiteral("usb") + name.section(u'-', 0, 0);
    }
    return {};
}

bool writeSysfsText(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() && f.flush();
}

// A powered-off stick comes back as if plugged in again: its bus's root hub taken away and
// given back, so the port the kernel let go of is found anew.
bool plugBack(const QString &rootHub, const std::function<bool()> &there)
{
    const QString authorized = QStringLiteral("/sys/bus/usb/devices/%1/authorized").arg(rootHub);
    if (!writeSysfsText(authorized, "0") || !writeSysfsText(authorized, "1"))
        return false;
    for (int i = 0; i < 30 && !there(); ++i) {
        settleUdev();
        QThread::msleep(500);
    }
    return there();
}

} // namespace

void TestGuestDesktop::usbStickThroughUdisksInTheSession()
{
    const GuestDrive stick = guestDrive(m_drives, QStringLiteral("usbstick"));
    QVERIFY(!stick.node.isEmpty());
    QVERIFY2(QFile::exists(route()), qPrintable(route()));
    FixtureWithoutAutomount quiet; // root's automounter stays away from the new filesystem
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), stick.node},
                    "label: dos\nstart=2048, size=20480, type=83\n")
                .ok());
    settleUdev();
    for (const QString &mount : mountsOf(stick.node))
        runTool(QStringLiteral("umount"), {mount.section(u' ', 1, 1)});
    const QString part = stick.partition(1);
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-F"), part})
                .ok());
    settleUdev();
    QElapsedTimer clock;
    clock.start();
    TestUser user;
    QVERIFY2(user.create(kUser), qPrintable(user.error()));
    const QStringList mount{route(), QStringLiteral("mount"), stick.node, QStringLiteral("1"),
                            QStringLiteral("media")};
    const QStringList unmount{route(), QStringLiteral("unmount"), stick.node, QStringLiteral("1")};

    // Outside any session polkit's default rules want an administrator: udisks2 refuses, and
    // the request goes to the helper (none runs here, so it says so).
    const ToolResult outside = runTool(QStringLiteral("setpriv"), user.asUserArgs(mount));
    const QString refused = answerOf(outside).value(QStringLiteral("error")).toString();
    QVERIFY2(!outside.ok() && refused.contains(QStringLiteral("udisks2 refused (Not authorized")) &&
                 refused.contains(QStringLiteral("helper")),
             qPrintable(outside.describe() + QString::fromUtf8(outside.out)));
    QVERIFY(mountOf(part).isEmpty());

    GuestSession session(user, kUser);
    QVERIFY(session.ok());
    // udisks2 absent (no bus): the helper's way, even in the session.
    const ToolResult absent = session.run(withoutBus(mount));
    const QString noUdisks = answerOf(absent).value(QStringLiteral("error")).toString();
    QVERIFY2(!absent.ok() && noUdisks.contains(QStringLiteral("helper")) &&
                 !noUdisks.contains(QStringLiteral("udisks2")),
             qPrintable(absent.describe() + QString::fromUtf8(absent.out)));
    QVERIFY(mountOf(part).isEmpty());

    // In the active session: udisks2 mounts it for the user, nosuid and nodev, no password.
    const ToolResult mounted = session.run(mount);
    QVERIFY2(mounted.ok(), qPrintable(mounted.describe() + QString::fromUtf8(mounted.out)));
    const QJsonObject result = answerOf(mounted).value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("via")).toString(), QStringLiteral("udisks2"));
    const QStringList where = mountOf(part);
    QCOMPARE(where.size(), 2);
    QVERIFY2(where.at(0).startsWith(QStringLiteral("/media/%1/").arg(kUser)),
             qPrintable(where.at(0)));
    QVERIFY(where.at(1).split(u',').contains(QStringLiteral("nosuid")));
    QVERIFY(where.at(1).split(u',').contains(QStringLiteral("nodev")));
    const ToolResult unmounted = session.run(unmount);
    QVERIFY2(unmounted.ok(), qPrintable(unmounted.describe() + QString::fromUtf8(unmounted.out)));
    QVERIFY(mountOf(part).isEmpty());

    // Root's own window without udisks2 takes the helper's code: mounted, not through udisks2.
    const ToolResult asRoot = runTool(QStringLiteral("env"), withoutBus(mount).mid(1));
    QVERIFY2(asRoot.ok(), qPrintable(asRoot.describe() + QString::fromUtf8(asRoot.out)));
    QVERIFY(!answerOf(asRoot)
                 .value(QStringLiteral("result"))
                 .toObject()
                 .contains(QStringLiteral("via")));
    QCOMPARE(mountOf(part).size(), 2);
    QVERIFY(runTool(QStringLiteral("env"), withoutBus(unmount).mid(1)).ok());
    QVERIFY(mountOf(part).isEmpty());

    // Power Off in the session: udisks2 lets the stick go; lsblk lists it no more. The
    // filesystem goes first: root's automounter would mount it when the stick comes back.
    QVERIFY(
        runTool(QStringLiteral("wipefs"), {QStringLiteral("-q"), QStringLiteral("-a"), part}).ok());
    settleUdev();
    const QString hub = rootHubOf(stick.serial);
    QVERIFY(!hub.isEmpty());
    const ToolResult off = session.run({route(), QStringLiteral("power-off"), stick.node});
    QVERIFY2(off.ok(), qPrintable(off.describe() + QString::fromUtf8(off.out)));
    QCOMPARE(answerOf(off).value(QStringLiteral("result")).toObject().value(QStringLiteral("via")),
             QJsonValue(QStringLiteral("udisks2")));
    settleUdev();
    QVERIFY(lsblkDriveNode(stick.serial).isEmpty());
    QVERIFY2(plugBack(hub, [&] { return !lsblkDriveNode(stick.serial).isEmpty(); }),
             "the stick did not come back");
    for (GuestDrive &drive : m_drives) // the next case finds it under its new name, if any
        if (drive.serial == stick.serial)
            drive.node = lsblkDriveNode(stick.serial);
    qInfo("through udisks2 and back in %lld ms", clock.elapsed());
}
