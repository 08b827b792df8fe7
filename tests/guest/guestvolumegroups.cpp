// The LVM case of guest_desktop: a volume group activated and deactivated through Partwise, in a
// kernel with device-mapper, judged by lvs, vgs and dmsetup.
#include "../serve/serveclient.h"
#include "clirun.h"
#include "guestdesktop.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace pwtest;

namespace {

const QString kGroup = QStringLiteral("pw-vgact");

// "active" or "" for each of the group's volumes, as lvs reports them.
QString lvsActive()
{
    return QString::fromUtf8(
               runTool(QStringLiteral("lvs"), {QStringLiteral("--noheadings"), QStringLiteral("-o"),
                                               QStringLiteral("lv_name,lv_active"), kGroup})
                   .out)
        .simplified();
}

QString dmsetupLs()
{
    return QString::fromUtf8(runTool(QStringLiteral("dmsetup"), {QStringLiteral("ls")}).out);
}

} // namespace

// A group on the NVMe 4Kn drive's one partition with a volume made inactive. `vg-activate`
// makes lvs call it active and dmsetup list its device, `check` says so, a job writing the
// partition is refused naming the volume, a mounted volume keeps `vg-deactivate` from working
// (exit 1), and `vg-deactivate` leaves no device-mapper device. Through the root helper for a
// user of this desktop: the group it activated it deactivates; one the system activated it
// refuses, and lvs shows it still active.
void TestGuestDesktop::volumeGroupActivatedAndDeactivated()
{
    const GuestDrive d = guestDrive(m_drives, QStringLiteral("nvme4kn"));
    QVERIFY(!d.node.isEmpty());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), d.node},
                    "label: gpt\nstart=256, size=16384, type=lvm\n"
                    "start=16640, size=8192, type=lvm\n")
                .ok());
    settleUdev();
    const ToolResult made = runTool(
        QStringLiteral("sh"),
        {QStringLiteral("-c"), QStringLiteral("pvcreate -q %1 %3 && vgcreate -q %2 %1 %3 && "
                                              "lvcreate -q -y -an -Zn -L 8M -n data %2 %1")
                                   .arg(d.partition(1), kGroup, d.partition(2))});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const auto release = qScopeGuard([&] {
        runTool(QStringLiteral("umount"),
                {QStringLiteral("/dev/") + kGroup + QStringLiteral("/data")});
        runTool(QStringLiteral("vgchange"), {QStringLiteral("-an"), kGroup});
        runTool(QStringLiteral("vgremove"), {QStringLiteral("-q"), QStringLiteral("-f"), kGroup});
        runTool(QStringLiteral("pvremove"), {QStringLiteral("-q"), d.partition(1), d.partition(2)});
    });
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(lvsActive(), QStringLiteral("data"));

    const ToolResult on =
        runTool(cliPath(), {QStringLiteral("vg-activate"), QStringLiteral("--json"), d.node,
                            QStringLiteral("1")});
    QVERIFY2(on.ok(), qPrintable(on.describe()));
    QCOMPARE(QJsonDocument::fromJson(on.out).object().value(QStringLiteral("active_volumes")),
             QJsonValue(QJsonArray{kGroup + QStringLiteral("/data")}));
    QCOMPARE(lvsActive(), QStringLiteral("data active"));
    QVERIFY2(dmsetupLs().contains(QStringLiteral("pw--vgact-data")), qPrintable(dmsetupLs()));
    const CliResult checked = runCli({QStringLiteral("check"), QStringLiteral("--json"), d.node});
    const QJsonObject layer = partitionByNumber(checked.devices().first().toObject(), 1)
                                  .value(QStringLiteral("layers"))
                                  .toArray()
                                  .first()
                                  .toObject();
    QCOMPARE(layer.value(QStringLiteral("volume_group")).toString(), kGroup);
    QCOMPARE(layer.value(QStringLiteral("logical_volumes"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("active")),
             QJsonValue(true));
    // Writing the partition is refused, naming the volume.
    const QString plan = m_dir.filePath(QStringLiteral("delete-pv.json"));
    QFile planFile(plan);
    QVERIFY(planFile.open(QIODevice::WriteOnly));
    planFile.write(R"({"operations":[{"op":"delete","number":1}]})");
    planFile.close();
    const CliResult write =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), plan, d.node});
    QVERIFY2(write.exitCode != 0 && (write.out + write.err).contains("pw-vgact/data"),
             qPrintable(write.describe()));
    // The group's other physical volume holds no active volume, yet is the active group's: a
    // format of it is refused, naming the group (sysfs lists no holder of it).
    QVERIFY(
        QDir(QStringLiteral("/sys/class/block/%1/holders").arg(d.partition(2).section(u'/', -1)))
            .isEmpty());
    QVERIFY(planFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
    planFile.write(R"({"operations":[{"op":"format","number":2,"fs":"ext4"}]})");
    planFile.close();
    const CliResult format =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), plan, d.node});
    QVERIFY2(format.exitCode != 0 &&
                 (format.out + format.err).contains("active volume group " + kGroup.toUtf8()),
             qPrintable(format.describe()));
    QCOMPARE(runTool(QStringLiteral("blkid"),
                     {QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                      QStringLiteral("TYPE"), d.partition(2)})
                 .out.trimmed(),
             QByteArray("LVM2_member"));
    // A mounted volume is in use: deactivation fails and changes nothing.
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("/dev/pw-vgact/data")})
                .ok());
    const QString folder = m_dir.filePath(QStringLiteral("lv"));
    QDir().mkpath(folder);
    QVERIFY(runTool(QStringLiteral("mount"), {QStringLiteral("/dev/pw-vgact/data"), folder}).ok());
    const ToolResult busy =
        runTool(cliPath(), {QStringLiteral("vg-deactivate"), d.node, QStringLiteral("1")});
    runTool(QStringLiteral("umount"), {folder});
    QCOMPARE(busy.exitCode, 1);
    QVERIFY2(busy.err.contains("in use"), qPrintable(busy.describe()));
    QCOMPARE(lvsActive(), QStringLiteral("data active"));

    const ToolResult off =
        runTool(cliPath(), {QStringLiteral("vg-deactivate"), d.node, QStringLiteral("1")});
    QVERIFY2(off.ok(), qPrintable(off.describe()));
    QCOMPARE(lvsActive(), QStringLiteral("data"));
    QVERIFY2(!dmsetupLs().contains(QStringLiteral("pw--vgact")), qPrintable(dmsetupLs()));
    qInfo("activated and deactivated by the CLI after %lld ms", clock.elapsed());

    TestUser user;
    QVERIFY2(user.create(QStringLiteral("pwlvm"), QStringLiteral("/bin/sh"),
                         QStringLiteral("/home/pwlvm")),
             qPrintable(user.error()));
    ServeClient helper(user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QJsonObject params{{"path", d.node}, {"partition", 1}};
    QJsonObject answer = helper.call(QStringLiteral("vg-activate"), params);
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QCOMPARE(lvsActive(), QStringLiteral("data active"));
    answer = helper.call(QStringLiteral("vg-deactivate"), params);
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    QCOMPARE(lvsActive(), QStringLiteral("data"));
    QVERIFY(runTool(QStringLiteral("vgchange"), {QStringLiteral("-ay"), kGroup}).ok());
    answer = helper.call(QStringLiteral("vg-deactivate"), params);
    QCOMPARE(errorCodeOf(answer), -32001);
    QVERIFY2(describe(answer).contains(QStringLiteral("system's")), qPrintable(describe(answer)));
    QCOMPARE(lvsActive(), QStringLiteral("data active"));
    // An activation of the already active group (a no-op; a stick copying the system group's
    // name and UUID asks for it) does not make the system's group the user's to deactivate.
    answer = helper.call(QStringLiteral("vg-activate"), params);
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    answer = helper.call(QStringLiteral("vg-deactivate"), params);
    QCOMPARE(errorCodeOf(answer), -32001);
    QVERIFY2(describe(answer).contains(QStringLiteral("system's")), qPrintable(describe(answer)));
    QCOMPARE(lvsActive(), QStringLiteral("data active"));
    QVERIFY(runTool(QStringLiteral("vgchange"), {QStringLiteral("-an"), kGroup}).ok());
    QVERIFY(helper.closeAndWait());
    user.remove();
    QVERIFY2(!dmsetupLs().contains(QStringLiteral("pw--vgact")), qPrintable(dmsetupLs()));
    qInfo("through the helper after %lld ms", clock.elapsed());
}
