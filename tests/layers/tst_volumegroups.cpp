// LVM volume groups inside partitions, on this machine, which has no device-mapper: what can be
// read and refused without activating anything. `check --json` lists a physical volume's group,
// extent size and logical volumes with the verdict on each volume's first byte, the offsets
// coming from lvs's own segment map (seg_pe_ranges), vgs's extent size and pvs's pe_start; the
// volumes are made with activation off. `vg-activate`/`vg-deactivate` refuse what is no physical
// volume of a group, from the command line and from the root helper serving a user the test
// creates, and the helper refuses malformed requests as bad params. Activation itself is tested
// in the guest (tests/guest/tst_guestdesktop, volumeGroupActivatedAndDeactivated).
#include "../serve/serveclient.h"
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "testuser.h"
#include "toolrun.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 KiB = 1024;
constexpr qint64 MiB = 1024 * KiB;

// No udev database, and no device-mapper to talk to: the volumes are made, never activated.
const QString kLvmConfig =
    QStringLiteral("devices { obtain_device_list_from_udev=0 } global { activation=0 }");

ToolResult lvm(const QString &tool, QStringList args)
{
    args << QStringLiteral("--config") << kLvmConfig;
    return runTool(tool, args);
}

} // namespace

class TestVolumeGroups : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void checkListsTheLogicalVolumesWithTheirAlignment();
    void commandLineRefusesWhatIsNoGroupsVolume();
    void helperRefusesBadRequestsAndNonVolumes();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<LoopDevice> m_loop;
    TestUser m_user;
    // Unique per run: other tests on this machine may make groups of their own at the same time.
    QString m_group = QStringLiteral("pwtestvg%1").arg(QCoreApplication::applicationPid());
};

// Partition 1 a physical volume of a group with 512 KiB extents and two volumes, partition 2 an
// ext4, partition 3 a physical volume in no group.
void TestVolumeGroups::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(buildSetting("PARTWISE_CLI"));
    const QString image = m_dir.filePath(QStringLiteral("disk.img"));
    QVERIFY(
        runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("40M"), image})
            .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nstart=2048, size=32768, type=lvm\nsize=8192\nsize=20480, "
                    "type=lvm\n")
                .ok());
    m_loop = std::make_unique<LoopDevice>(image);
    QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
    QVERIFY(m_loop->addPartitions());
    const QString pv = m_loop->partitionNode(1);
    const ToolResult made[] = {
        lvm(QStringLiteral("pvcreate"), {QStringLiteral("-q"), pv}),
        lvm(QStringLiteral("vgcreate"),
            {QStringLiteral("-q"), QStringLiteral("-s"), QStringLiteral("512k"), m_group, pv}),
        lvm(QStringLiteral("lvcreate"),
            {QStringLiteral("-q"), QStringLiteral("-an"), QStringLiteral("-Zn"),
             QStringLiteral("-L"), QStringLiteral("1536k"), QStringLiteral("-n"),
             QStringLiteral("data"), m_group}),
        lvm(QStringLiteral("lvcreate"),
            {QStringLiteral("-q"), QStringLiteral("-an"), QStringLiteral("-Zn"),
             QStringLiteral("-L"), QStringLiteral("2m"), QStringLiteral("-n"),
             QStringLiteral("logs"), m_group}),
        runTool(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-q"), QStringLiteral("-F"), m_loop->partitionNode(2)}),
        lvm(QStringLiteral("pvcreate"), {QStringLiteral("-q"), m_loop->partitionNode(3)})};
    for (const ToolResult &r : made)
        QVERIFY2(r.ok(), qPrintable(r.describe()));
    QVERIFY(m_user.create(QStringLiteral("pwvgtest"), QStringLiteral("/bin/sh"),
                          m_dir.filePath(QStringLiteral("home"))));
}

void TestVolumeGroups::cleanupTestCase()
{
    if (m_loop) {
        lvm(QStringLiteral("vgremove"), {QStringLiteral("-q"), QStringLiteral("-f"), m_group});
        for (int n : {1, 3})
            lvm(QStringLiteral("pvremove"), {QStringLiteral("-q"), m_loop->partitionNode(n)});
    }
    m_loop.reset();
    m_user.remove();
}

// Every volume's stretch where lvs puts it: the partition's start (sysfs) + pe_start (pvs) +
// the first extent (lvs seg_pe_ranges) × the extent size (vgs). On a 1 MiB grain, 512 KiB
// extents are not whole grains: "data" (extents 0–2) starts on the grain, "logs" (from extent
// 3) 512 KiB past it, on a physical sector.
void TestVolumeGroups::checkListsTheLogicalVolumesWithTheirAlignment()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString pv = m_loop->partitionNode(1);
    const qint64 peStart =
        QString::fromUtf8(
            lvm(QStringLiteral("pvs"), {QStringLiteral("--noheadings"), QStringLiteral("--units"),
                                        QStringLiteral("b"), QStringLiteral("--nosuffix"),
                                        QStringLiteral("-o"), QStringLiteral("pe_start"), pv})
                .out)
            .trimmed()
            .toLongLong();
    const qint64 extent =
        QString::fromUtf8(lvm(QStringLiteral("vgs"),
                              {QStringLiteral("--noheadings"), QStringLiteral("--units"),
                               QStringLiteral("b"), QStringLiteral("--nosuffix"),
                               QStringLiteral("-o"), QStringLiteral("vg_extent_size"), m_group})
                              .out)
            .trimmed()
            .toLongLong();
    QCOMPARE(extent, 512 * KiB);
    // "data /dev/loop0p1:0-2" lines: each volume's first extent on this PV, and how many.
    const ToolResult segments =
        lvm(QStringLiteral("lvs"),
            {QStringLiteral("--noheadings"), QStringLiteral("--segments"), QStringLiteral("-o"),
             QStringLiteral("lv_name,seg_pe_ranges"), m_group});
    QVERIFY2(segments.ok(), qPrintable(segments.describe()));
    QMap<QString, QPair<qint64, qint64>> expected; // name -> (absolute byte, size)
    static const QRegularExpression line(QStringLiteral("(\\S+)\\s+\\S+:(\\d+)-(\\d+)"));
    for (auto it = line.globalMatch(QString::fromUtf8(segments.out)); it.hasNext();) {
        const auto m = it.next();
        const qint64 first = m.captured(2).toLongLong();
        expected.insert(m.captured(1), {2048 * 512 + peStart + first * extent,
                                        (m.captured(3).toLongLong() - first + 1) * extent});
    }
    QCOMPARE(expected.size(), 2);

    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--json"), m_loop->path()});
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    const QJsonObject layer = partitionByNumber(r.devices().first().toObject(), 1)
                                  .value(QStringLiteral("layers"))
                                  .toArray()
                                  .first()
                                  .toObject();
    QCOMPARE(layer.value(QStringLiteral("volume_group")).toString(), m_group);
    QCOMPARE(layer.value(QStringLiteral("extent_size_bytes")).toInteger(), extent);
    QCOMPARE(layer.value(QStringLiteral("extents_keep_grain")).toBool(), false);
    const QJsonArray volumes = layer.value(QStringLiteral("logical_volumes")).toArray();
    QCOMPARE(volumes.size(), 2);
    for (const QJsonValue &v : volumes) {
        const QJsonObject volume = v.toObject();
        const QString name = volume.value(QStringLiteral("name")).toString();
        QVERIFY2(expected.contains(name), qPrintable(name));
        QCOMPARE(volume.value(QStringLiteral("absolute_offset_bytes")).toInteger(),
                 expected.value(name).first);
        QCOMPARE(volume.value(QStringLiteral("size_bytes")).toInteger(),
                 expected.value(name).second);
        QCOMPARE(volume.value(QStringLiteral("active")).toBool(), false);
        // The verdict, from the offset lvs gives: on the 1 MiB grain, or only on 4 KiB.
        const qint64 at = expected.value(name).first;
        QCOMPARE(volume.value(QStringLiteral("status")).toString(),
                 at % MiB == 0 ? QStringLiteral("aligned") : QStringLiteral("sector-aligned"));
    }
    QVERIFY(expected.value(QStringLiteral("data")).first % MiB == 0);
    QVERIFY(expected.value(QStringLiteral("logs")).first % MiB != 0);
    // A PV in no group lists none.
    const QJsonObject orphan = partitionByNumber(r.devices().first().toObject(), 3)
                                   .value(QStringLiteral("layers"))
                                   .toArray()
                                   .first()
                                   .toObject();
    QCOMPARE(orphan.value(QStringLiteral("type")).toString(), QStringLiteral("LVM2_member"));
    QVERIFY(!orphan.contains(QStringLiteral("volume_group")));
}

// What is not a physical volume of a group is refused with exit 2, naming why, and nothing is
// activated (lvs: no volume active).
void TestVolumeGroups::commandLineRefusesWhatIsNoGroupsVolume()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QList<QPair<QStringList, QString>> cases{
        {{QStringLiteral("vg-activate"), m_loop->path(), QStringLiteral("2")},
         QStringLiteral("no LVM physical volume")},
        {{QStringLiteral("vg-activate"), m_loop->path(), QStringLiteral("3")},
         QStringLiteral("belongs to no volume group")},
        {{QStringLiteral("vg-deactivate"), m_loop->path(), QStringLiteral("3")},
         QStringLiteral("belongs to no volume group")},
        {{QStringLiteral("vg-activate"), m_loop->path(), QStringLiteral("9")}, QString()},
        {{QStringLiteral("vg-activate"), m_loop->path(), QStringLiteral("0")},
         QStringLiteral("from 1 to 256")},
        {{QStringLiteral("vg-activate"), m_loop->partitionNode(1), QStringLiteral("1")}, QString()},
    };
    for (const auto &[args, said] : cases) {
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 2, qPrintable(args.join(' ') + QStringLiteral(": ") + r.describe()));
        QVERIFY2(said.isEmpty() || QString::fromUtf8(r.err).contains(said),
                 qPrintable(args.join(' ') + QStringLiteral(": ") + r.describe()));
    }
    const ToolResult active =
        lvm(QStringLiteral("lvs"), {QStringLiteral("--noheadings"), QStringLiteral("-o"),
                                    QStringLiteral("lv_active"), m_group});
    QVERIFY2(active.ok(), qPrintable(active.describe()));
    QVERIFY2(
        !QString::fromUtf8(active.out).simplified().split(' ').contains(QStringLiteral("active")),
        active.out.constData());
}

// The helper serving a user takes only a partition number: no group name, no other types; and
// refuses a partition that is no physical volume of a group.
void TestVolumeGroups::helperRefusesBadRequestsAndNonVolumes()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    ServeClient helper(m_user.pkexecEnvironment());
    QVERIFY(helper.started());
    const QString disk = m_loop->path();
    const QList<QPair<QString, QJsonObject>> bad{
        {"vg-activate", {{"path", disk}}},
        {"vg-activate", {{"path", disk}, {"partition", 0}}},
        {"vg-activate", {{"path", disk}, {"partition", 257}}},
        {"vg-activate", {{"path", disk}, {"partition", 1.5}}},
        {"vg-activate", {{"path", disk}, {"partition", "1"}}},
        {"vg-deactivate", {{"path", disk}, {"partition", 1}, {"volume_group", "system"}}},
    };
    for (const auto &[method, params] : bad) {
        const QJsonObject answer = helper.call(method, params);
        QVERIFY2(errorCodeOf(answer) == -32602, qPrintable(method + ": " + describe(answer)));
    }
    const QList<QPair<QString, QJsonObject>> refused{
        {"vg-activate", {{"path", disk}, {"partition", 2}}},
        {"vg-activate", {{"path", disk}, {"partition", 3}}},
        {"vg-deactivate", {{"path", disk}, {"partition", 3}}},
        {"vg-activate", {{"path", disk}, {"partition", 9}}},
        {"vg-activate", {{"path", m_loop->partitionNode(1)}, {"partition", 1}}},
    };
    for (const auto &[method, params] : refused) {
        const QJsonObject answer = helper.call(method, params);
        QVERIFY2(errorCodeOf(answer) == -32001, qPrintable(method + ": " + describe(answer)));
    }
    QVERIFY(describe(helper.call("vg-activate", {{"path", disk}, {"partition", 3}}))
                .contains(QStringLiteral("belongs to no volume group")));
    QVERIFY(helper.closeAndWait());
}

QTEST_GUILESS_MAIN(TestVolumeGroups)
#include "tst_volumegroups.moc"
