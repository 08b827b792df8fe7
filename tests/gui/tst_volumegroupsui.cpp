// A physical volume's group in the window: the info panel lists the group, its extent size
// against the grain and each logical volume with where it starts on the disk (offsets from lvs's
// segment map, vgs and pvs, and sfdisk's start) and its verdict; Activate/Deactivate Volume Group
// and Power Off are greyed with the reason for each selection. The volumes are made with
// activation off (this machine has no device-mapper); pvs reads them through a loop device, so
// the window runs as root.
#include "diskmapwidget.h"
#include "editing/applyconfirmation.h"
#include "editing/resizepartitiondialog.h"
#include "guitestsupport.h"
#include "infopanel.h"
#include "logicalvolumestrip.h"
#include "loopdevice.h"
#include "mount/mountactions.h"
#include "mount/partitionmounter.h"
#include "mount/poweroffaction.h"
#include "mount/volumegroupactions.h"
#include "ops/operationpreview.h"
#include "partitionmodel.h"
#include "realign/realigncontroller.h"
#include "table/diskreader.h"
#include "toolrun.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTest>

using namespace partwise;
using pwtest::runTool;

namespace {

const QString kLvmConfig =
    QStringLiteral("devices { obtain_device_list_from_udev=0 } global { activation=0 }");

pwtest::ToolResult lvm(const QString &tool, QStringList args)
{
    args << QStringLiteral("--config") << kLvmConfig;
    return runTool(tool, args);
}

// The digits of a number as the panel writes it, without its group separators.
QString digits(QString text)
{
    return text.remove(QRegularExpression(QStringLiteral("[\\s,.'\u00a0\u202f]")));
}

} // namespace

class TestVolumeGroupsUi : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { guitest::useTestSettings(); }
    void groupAndVolumesInTheInfoPanel();

private:
    void resizeFollowsThePhysicalVolume(const QString &image, qint64 peStart);
    QTemporaryDir m_dir;
};

void TestVolumeGroupsUi::groupAndVolumesInTheInfoPanel()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString image = m_dir.filePath(QStringLiteral("lvm.img"));
    QVERIFY(
        runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("40M"), image})
            .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nstart=2048, size=32768, type=lvm\nsize=20480, type=lvm\n")
                .ok());
    const QString group = QStringLiteral("pwuivg%1").arg(QCoreApplication::applicationPid());
    qint64 peStart = 0;
    QString segments;
    {
        pwtest::LoopDevice loop(image);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QVERIFY(loop.addPartitions());
        const QString pv = loop.partitionNode(1);
        for (const pwtest::ToolResult &r :
             {lvm(QStringLiteral("pvcreate"), {QStringLiteral("-q"), pv}),
              lvm(QStringLiteral("vgcreate"),
                  {QStringLiteral("-q"), QStringLiteral("-s"), QStringLiteral("512k"), group, pv}),
              lvm(QStringLiteral("lvcreate"),
                  {QStringLiteral("-q"), QStringLiteral("-an"), QStringLiteral("-Zn"),
                   QStringLiteral("-L"), QStringLiteral("1536k"), QStringLiteral("-n"),
                   QStringLiteral("data"), group}),
              lvm(QStringLiteral("lvcreate"),
                  {QStringLiteral("-q"), QStringLiteral("-an"), QStringLiteral("-Zn"),
                   QStringLiteral("-L"), QStringLiteral("2m"), QStringLiteral("-n"),
                   QStringLiteral("logs"), group}),
              lvm(QStringLiteral("pvcreate"), {QStringLiteral("-q"), loop.partitionNode(2)})})
            QVERIFY2(r.ok(), qPrintable(r.describe()));
        peStart = QString::fromUtf8(lvm(QStringLiteral("pvs"),
                                        {QStringLiteral("--noheadings"), QStringLiteral("--units"),
                                         QStringLiteral("b"), QStringLiteral("--nosuffix"),
                                         QStringLiteral("-o"), QStringLiteral("pe_start"), pv})
                                        .out)
                      .trimmed()
                      .toLongLong();
        segments = QString::fromUtf8(
            lvm(QStringLiteral("lvs"),
                {QStringLiteral("--noheadings"), QStringLiteral("--segments"), QStringLiteral("-o"),
                 QStringLiteral("lv_name,seg_pe_ranges"), group})
                .out);
        // The loop device goes; the group stays in the image (LVM forgets it with the device).
    }
    QVERIFY(peStart > 0);
    // Where lvs puts each volume's first extent: partition start + pe_start + extent × 512 KiB.
    QMap<QString, qint64> starts;
    static const QRegularExpression line(QStringLiteral("(\\S+)\\s+\\S+:(\\d+)-\\d+"));
    for (auto it = line.globalMatch(segments); it.hasNext();) {
        const auto m = it.next();
        starts.insert(m.captured(1),
                      2048 * 512 + peStart + m.captured(2).toLongLong() * 512 * 1024);
    }
    QCOMPARE(starts.size(), 2);

    MainWindow window;
    RealignController *realign = installRealign(&window, window.editing());
    MountActions *mount = MountActions::install(
        &window, realign, new PartitionMounter([](const QString &) { return nullptr; }));
    VolumeGroupActions *groups = VolumeGroupActions::install(&window, mount);
    PowerOffAction *powerOff = PowerOffAction::install(&window, mount);
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(guitest::openAndWait(window, image));
    PartitionModel *model = window.partitionModel();
    const auto select = [&](int number) {
        window.regionSelection()->setCurrentIndex(
            model->index(guitest::rowOfPartition(*model, number), 0),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    };

    select(1);
    const QString layers = window.infoPanel()->value(QStringLiteral("layers"));
    QVERIFY2(layers.contains(QStringLiteral("volume group %1 (not active)").arg(group)),
             qPrintable(layers));
    QVERIFY2(
        layers.contains(QStringLiteral("extents of 512 KiB: not a multiple of the 1 MiB grain")),
        qPrintable(layers));
    for (const QString &name : {QStringLiteral("data"), QStringLiteral("logs")}) {
        const QString volumeLine =
            layers.split(QLatin1Char('\n')).filter(QStringLiteral("volume %1,").arg(name)).value(0);
        QVERIFY2(digits(volumeLine).contains(QString::number(starts.value(name))),
                 qPrintable(volumeLine));
        const bool onGrain = starts.value(name) % (1 << 20) == 0;
        QVERIFY2(volumeLine.endsWith(onGrain ? QStringLiteral("Aligned")
                                             : QStringLiteral("Sector-aligned"),
                                     Qt::CaseInsensitive),
                 qPrintable(volumeLine));
    }
    QVERIFY(starts.value(QStringLiteral("data")) % (1 << 20) == 0);
    QVERIFY(starts.value(QStringLiteral("logs")) % (1 << 20) != 0);
    // The map draws both volumes inside the physical volume, each with its verdict, and its
    // tooltip says where each starts (lvs's numbers).
    const int pvRow = guitest::rowOfPartition(*model, 1);
    const QRectF pvRect = window.diskMap()->regionRect(pvRow);
    QVERIFY(!LogicalVolumeStrip::stripRect(*model, pvRow, pvRect).isEmpty());
    const QStringList volumes = LogicalVolumeStrip::summary(*model, pvRow).split(QLatin1Char('\n'));
    QCOMPARE(volumes.size(), 2);
    for (const QString &volume : volumes) {
        const QString name = volume.section(u':', 0, 0);
        QVERIFY2(digits(volume).contains(QString::number(starts.value(name))), qPrintable(volume));
        QVERIFY2(volume.endsWith(starts.value(name) % (1 << 20) == 0
                                     ? QStringLiteral("(Aligned)")
                                     : QStringLiteral("(Sector-aligned)"),
                                 Qt::CaseInsensitive),
                 qPrintable(volume));
    }
    guitest::saveScreenshot(window.diskMap(), QStringLiteral("volumegroup-map"));
    // The panel scrolled to the layers, as a person reading them would.
    auto *layersLabel = window.infoPanel()->findChild<QLabel *>(QStringLiteral("layers"));
    auto *scroll = window.infoPanel()->findChild<QScrollArea *>();
    QVERIFY(layersLabel && scroll);
    window.resizeDocks({window.infoPanel()}, {640}, Qt::Horizontal);
    QTest::qWait(200);
    scroll->ensureWidgetVisible(layersLabel, 0, 0);
    QTest::qWait(200);
    guitest::saveScreenshot(window.infoPanel(), QStringLiteral("volumegroup-info-panel"));
    guitest::saveScreenshot(layersLabel, QStringLiteral("volumegroup-info-layers"));
    // An image's volume groups are not activated by the window; neither is it powered off.
    QVERIFY(!groups->activateAction()->isEnabled());
    QVERIFY2(groups->activateAction()->statusTip().contains(QStringLiteral("image file")),
             qPrintable(groups->activateAction()->statusTip()));
    QVERIFY(!powerOff->action()->isEnabled());
    QVERIFY2(powerOff->action()->statusTip().contains(QStringLiteral("image file")),
             qPrintable(powerOff->action()->statusTip()));
    select(2);
    QVERIFY(!groups->deactivateAction()->isEnabled());
    QCOMPARE(groups->deactivateAction()->statusTip(),
             QStringLiteral("This physical volume belongs to no volume group."));
    guitest::saveScreenshot(&window, QStringLiteral("volumegroup-window"));
    resizeFollowsThePhysicalVolume(image, peStart);
}

// Resize/Move of the physical volume's partition says that pvresize follows it; the Apply
// question lists the pvresize of a shrink that fits (7 of 512 KiB extents used, 14 fit in
// 8 MiB after the 1 MiB pe_start), and a shrink to 2 MiB is refused naming the volume "logs"
// (the last extent lvs gives it is 6, and only 2 fit).
void TestVolumeGroupsUi::resizeFollowsThePhysicalVolume(const QString &image, qint64 peStart)
{
    const DiskLayout base = readDisk(image).layout;
    const PartitionInfo *pv = base.partitionByNumber(1);
    QVERIFY(pv);
    ResizePartitionDialog dialog(base, {}, base, *pv, AlignmentPolicy());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QString note = dialog.findChild<QLabel *>(QStringLiteral("filesystemNote"))->text();
    QVERIFY2(note.contains(QStringLiteral("through pvresize")), qPrintable(note));
    // The smallest size: pe_start and the 7 extents of 512 KiB "data" and "logs" use (pvs).
    QTRY_VERIFY(dialog.isMinimumKnown());
    QCOMPARE(dialog.minimumBytes(), peStart + 7 * 512 * 1024);
    guitest::saveScreenshot(&dialog, QStringLiteral("volumegroup-resize-dialog"));
    Operation shrink;
    shrink.type = Operation::Type::Resize;
    shrink.number = 1;
    shrink.sizeBytes = 8 << 20;
    const PreviewResult fits = previewOperations(base, {shrink}, AlignmentPolicy());
    QVERIFY2(fits.ok, qPrintable(fits.error));
    const QString steps = ApplyConfirmation::stepsText(fits);
    QVERIFY2(steps.contains(QStringLiteral("1. pvresize partition 1 to 8 MiB, before the "
                                           "partition shrinks")),
             qPrintable(steps));
    shrink.sizeBytes = 2 << 20;
    const PreviewResult refused = previewOperations(base, {shrink}, AlignmentPolicy());
    QVERIFY(!refused.ok);
    QVERIFY2(refused.error.contains(QStringLiteral("logical volume logs uses the physical "
                                                   "volume's extent 6")) &&
                 refused.error.contains(QStringLiteral("only 2 fit")),
             qPrintable(refused.error));
}

QTEST_MAIN(TestVolumeGroupsUi)
#include "tst_volumegroupsui.moc"
