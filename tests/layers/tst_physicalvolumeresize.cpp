// A partition holding an LVM physical volume, resized by `partwise-cli apply`: the volume follows
// it through pvresize, as GParted and KDE Partition Manager do. Judged by sfdisk (the
// partition), pvs, vgs and lvs (the volume, its group and its logical volumes) and e2fsck on the
// ext4 inside a logical volume, reached at the offset pvs and lvs give (this machine has no
// device-mapper, so nothing is activated). LVM sees only this test's partition (--devices), and
// the group's name is unique to the run, so no other group on the machine is ever read or
// touched. Cases in order on one disk: grow, a shrink that fits, a shrink refused.
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 MiB = 1024 * 1024;

struct VolumeState
{
    qint64 partitionBytes = -1; // sfdisk
    qint64 peCount = -1;        // pvs
    qint64 peAllocated = -1;    // pvs
    qint64 vgFreeExtents = -1;  // vgs
    QString volumes;            // lvs: "data:6291456 logs:4194304"
};

} // namespace

class TestPhysicalVolumeResize : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void growRunsPvresizeAfterThePartition();
    void shrinkThatFitsRunsPvresizeFirst();
    void shrinkPastAllocatedExtentsIsRefused();

private:
    ToolResult lvm(const QString &tool, QStringList args) const;
    qint64 lvmNumber(const QString &tool, const QString &field, const QString &what) const;
    VolumeState state() const;
    CliResult resizeTo(qint64 bytes);
    void verifyExt4InData();

    QTemporaryDir m_dir;
    std::unique_ptr<LoopDevice> m_loop;
    QString m_pv;
    // Unique per run: other suites may make groups of their own at the same time.
    QString m_group = QStringLiteral("pwpvresize%1").arg(QCoreApplication::applicationPid());
};

// Only this test's partition, no udev database, no device-mapper to talk to.
ToolResult TestPhysicalVolumeResize::lvm(const QString &tool, QStringList args) const
{
    args << QStringLiteral("--devices") << m_pv << QStringLiteral("--config")
         << QStringLiteral("devices { obtain_device_list_from_udev=0 } global { activation=0 }");
    return runTool(tool, args);
}

qint64 TestPhysicalVolumeResize::lvmNumber(const QString &tool, const QString &field,
                                           const QString &what) const
{
    const ToolResult r =
        lvm(tool, {QStringLiteral("--noheadings"), QStringLiteral("--units"), QStringLiteral("b"),
                   QStringLiteral("--nosuffix"), QStringLiteral("-o"), field, what});
    bool ok = false;
    const qint64 value = QString::fromUtf8(r.out).trimmed().toLongLong(&ok);
    return r.ok() && ok ? value : -1;
}

VolumeState TestPhysicalVolumeResize::state() const
{
    VolumeState s;
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), m_loop->path()});
    const QJsonArray parts = QJsonDocument::fromJson(table.out)
                                 .object()
                                 .value(QStringLiteral("partitiontable"))
                                 .toObject()
                                 .value(QStringLiteral("partitions"))
                                 .toArray();
    if (!parts.isEmpty())
        s.partitionBytes = parts.first().toObject().value(QStringLiteral("size")).toInteger() * 512;
    s.peCount = lvmNumber(QStringLiteral("pvs"), QStringLiteral("pv_pe_count"), m_pv);
    s.peAllocated = lvmNumber(QStringLiteral("pvs"), QStringLiteral("pv_pe_alloc_count"), m_pv);
    s.vgFreeExtents = lvmNumber(QStringLiteral("vgs"), QStringLiteral("vg_free_count"), m_group);
    const ToolResult lvs = lvm(QStringLiteral("lvs"),
                               {QStringLiteral("--noheadings"), QStringLiteral("--units"),
                                QStringLiteral("b"), QStringLiteral("--nosuffix"),
                                QStringLiteral("-o"), QStringLiteral("lv_name,lv_size"), m_group});
    QStringList volumes;
    for (const QString &line : QString::fromUtf8(lvs.out).split('\n', Qt::SkipEmptyParts))
        volumes << line.simplified().replace(' ', ':');
    s.volumes = volumes.join(' ');
    return s;
}

// A 64 MiB disk: partition 1 (16 MiB from 1 MiB) a physical volume of a group with 1 MiB
// extents, "data" (6 MiB, ext4) on extents 0-5 and "logs" (4 MiB) on 6-9; free space after it.
void TestPhysicalVolumeResize::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(buildSetting("PARTWISE_CLI"));
    const QString image = m_dir.filePath(QStringLiteral("disk.img"));
    QVERIFY(
        runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("64M"), image})
            .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nstart=2048, size=32768, type=lvm\n")
                .ok());
    m_loop = std::make_unique<LoopDevice>(image);
    QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
    QVERIFY(m_loop->addPartitions());
    m_pv = m_loop->partitionNode(1);
    const auto lv = [&](const char *name, const char *size) {
        return lvm(QStringLiteral("lvcreate"),
                   {QStringLiteral("-q"), QStringLiteral("-an"), QStringLiteral("-Zn"),
                    QStringLiteral("-L"), QLatin1String(size), QStringLiteral("-n"),
                    QLatin1String(name), m_group});
    };
    const ToolResult made[] = {
        lvm(QStringLiteral("pvcreate"), {QStringLiteral("-q"), m_pv}),
        lvm(QStringLiteral("vgcreate"),
            {QStringLiteral("-q"), QStringLiteral("-s"), QStringLiteral("1m"), m_group, m_pv}),
        lv("data", "6m"), lv("logs", "4m")};
    for (const ToolResult &r : made)
        QVERIFY2(r.ok(), qPrintable(r.describe()));
    const qint64 data =
        1 * MiB + lvmNumber(QStringLiteral("pvs"), QStringLiteral("pe_start"), m_pv);
    const ToolResult mkfs = runTool(QStringLiteral("mkfs.ext4"),
                                    {QStringLiteral("-q"), QStringLiteral("-F"),
                                     QStringLiteral("-E"), QStringLiteral("offset=%1").arg(data),
                                     m_loop->path(), QStringLiteral("%1k").arg(6 * 1024)});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));
    const VolumeState s = state();
    QCOMPARE(s.peCount, 15); // 16 MiB less pe_start's 1 MiB
    QCOMPARE(s.peAllocated, 10);
    verifyExt4InData();
}

void TestPhysicalVolumeResize::cleanupTestCase()
{
    if (m_loop) {
        lvm(QStringLiteral("vgremove"), {QStringLiteral("-q"), QStringLiteral("-f"), m_group});
        lvm(QStringLiteral("pvremove"), {QStringLiteral("-q"), m_pv});
    }
    m_loop.reset();
}

CliResult TestPhysicalVolumeResize::resizeTo(qint64 bytes)
{
    const QString plan = m_dir.filePath(QStringLiteral("plan-%1.json").arg(bytes));
    QFile f(plan);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral("{\"operations\":[{\"op\":\"resize\",\"number\":1,\"size\":\"%1MiB\"}]}")
                .arg(bytes / MiB)
                .toUtf8());
    f.close();
    return runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                   m_dir.filePath(QStringLiteral("backups")), plan, m_loop->path()});
}

// e2fsck -fn on "data", where lvs and pvs place it: the partition's start, pe_start, and the
// volume's first extent (seg_pe_ranges) times the extent size.
void TestPhysicalVolumeResize::verifyExt4InData()
{
    const ToolResult seg =
        lvm(QStringLiteral("lvs"),
            {QStringLiteral("--noheadings"), QStringLiteral("-o"), QStringLiteral("seg_pe_ranges"),
             m_group + QStringLiteral("/data")});
    static const QRegularExpression range(QStringLiteral(":(\\d+)-(\\d+)"));
    const QRegularExpressionMatch m = range.match(QString::fromUtf8(seg.out));
    QVERIFY2(m.hasMatch(), seg.out.constData());
    const qint64 offset =
        1 * MiB + lvmNumber(QStringLiteral("pvs"), QStringLiteral("pe_start"), m_pv) +
        m.captured(1).toLongLong() *
            lvmNumber(QStringLiteral("vgs"), QStringLiteral("vg_extent_size"), m_group);
    const ToolResult fsck =
        runTool(QStringLiteral("e2fsck"),
                {QStringLiteral("-fn"), m_loop->path() + QStringLiteral("?offset=%1").arg(offset)});
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
}

// Grown to 24 MiB: the volume takes the new size (pvs: 23 extents), the group has 13 free, the
// volumes keep theirs, the ext4 inside is clean.
void TestPhysicalVolumeResize::growRunsPvresizeAfterThePartition()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString volumes = state().volumes;
    const CliResult r = resizeTo(24 * MiB);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.err)));
    // The plan says it before Apply runs it.
    QVERIFY2(r.out.contains("pvresize " + m_pv.toUtf8() + " to 24 MiB, after the partition grows"),
             r.out.constData());
    const VolumeState s = state();
    QCOMPARE(s.partitionBytes, 24 * MiB);
    QCOMPARE(s.peCount, 23);
    QCOMPARE(s.peAllocated, 10);
    QCOMPARE(s.vgFreeExtents, 13);
    QCOMPARE(s.volumes, volumes);
    verifyExt4InData();
}

// Shrunk to 12 MiB: pvresize first (11 extents, all of "data" and "logs" inside), then the
// partition.
void TestPhysicalVolumeResize::shrinkThatFitsRunsPvresizeFirst()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString volumes = state().volumes;
    const CliResult r = resizeTo(12 * MiB);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.err)));
    QVERIFY2(
        r.out.contains("pvresize " + m_pv.toUtf8() + " to 12 MiB, before the partition shrinks"),
        r.out.constData());
    const VolumeState s = state();
    QCOMPARE(s.partitionBytes, 12 * MiB);
    QCOMPARE(s.peCount, 11);
    QCOMPARE(s.peAllocated, 10);
    QCOMPARE(s.vgFreeExtents, 1);
    QCOMPARE(s.volumes, volumes);
    verifyExt4InData();
}

// To 8 MiB only 7 extents would fit and "logs" ends at extent 10: refused before anything is
// written, naming the volume, and sfdisk, pvs, vgs and lvs read what they read before.
void TestPhysicalVolumeResize::shrinkPastAllocatedExtentsIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const VolumeState before = state();
    const CliResult r = resizeTo(8 * MiB);
    QVERIFY2(r.exitCode != 0 && !r.crashed, qPrintable(r.describe()));
    const QString said = QString::fromUtf8(r.err + r.out);
    qInfo("%s", qPrintable(said.trimmed()));
    QVERIFY2(said.contains(QStringLiteral("logical volume logs")) &&
                 said.contains(QStringLiteral("only 7 fit")),
             qPrintable(said));
    const VolumeState after = state();
    QCOMPARE(after.partitionBytes, before.partitionBytes);
    QCOMPARE(after.peCount, before.peCount);
    QCOMPARE(after.vgFreeExtents, before.vgFreeExtents);
    QCOMPARE(after.volumes, before.volumes);
    verifyExt4InData();
}

QTEST_GUILESS_MAIN(TestPhysicalVolumeResize)
#include "tst_physicalvolumeresize.moc"
