// The info panel's side-by-side physical sector sizes and its Drive group: a loop device with a
// remembered 8 KiB measurement, read by the window as a person would open it, and a disk whose
// drive answered (the recorded ATA 512e answer, handed to the panel through the model). Both
// panels are saved as screenshots under <build>/screenshots/.
#include "buildsetting.h"
#include "device/drivemeasurements.h"
#include "device/drivereport.h"
#include "disklistmodel.h"
#include "infopanel.h"
#include "partitionmodel.h"
#include "table/diskreader.h"
#include "window/mainwindow.h"

#include "guitestsupport.h"
#include "loopdevice.h"
#include "ruler/sectorrulerpanel.h"
#include "ruler/sectorrulerwidget.h"
#include "toolrun.h"

#include <QFile>
#include <QItemSelectionModel>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace pwtest;

namespace {

// The whole of the panel's content, not only the part the dock's scroll area shows.
void savePanel(InfoPanel *panel, const QString &name)
{
    auto *scroll = qobject_cast<QScrollArea *>(panel->widget());
    QWidget *content = scroll ? scroll->widget() : panel;
    // Wrapped labels: the height the content needs at its width, not at its preferred one.
    const int height = content->hasHeightForWidth() ? content->heightForWidth(content->width())
                                                    : content->sizeHint().height();
    content->resize(content->width(), std::max(height, content->sizeHint().height()));
    guitest::saveScreenshot(content, name);
}

} // namespace

class DriveInfoPanelTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void measuredLoopDevice();
    void driveThatAnswered();
    void failingDriveAtAGlance();
    void staleKernelPartitionIsWarned();

private:
    QString makeImage(const QString &name);
    QTemporaryDir m_dir;
};

void DriveInfoPanelTest::initTestCase()
{
    guitest::useTestSettings();
    QVERIFY(m_dir.isValid());
    qputenv("PARTWISE_DRIVE_STORE", QFile::encodeName(m_dir.filePath(QStringLiteral("d.json"))));
}

QString DriveInfoPanelTest::makeImage(const QString &name)
{
    const QString image = m_dir.filePath(name);
    runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("16M"), image});
    runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
            "label: gpt\nstart=2048, size=8192\nstart=10248, size=8192\n");
    return image;
}

void DriveInfoPanelTest::measuredLoopDevice()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    LoopDevice loop(makeImage(QStringLiteral("panel.img")));
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    DriveMeasurement m;
    m.physicalSectorSize = 8192;
    m.penaltyRatio = 4.2;
    m.measuredAt = QDateTime::currentDateTimeUtc();
    QString error;
    QVERIFY2(saveDriveMeasurement(driveKey(loop.path()), m, &error), qPrintable(error));

    MainWindow window;
    SectorRulerPanel *ruler = installSectorRuler(&window);
    window.resize(1200, 900);
    window.show();
    QVERIFY(guitest::openAndWait(window, loop.path()));
    InfoPanel *panel = window.infoPanel();
    QCOMPARE(panel->value(QStringLiteral("physicalReported")), QStringLiteral("512"));
    QCOMPARE(panel->value(QStringLiteral("physicalDrive")), QStringLiteral("–"));
    QCOMPARE(panel->value(QStringLiteral("physicalMeasured")), QStringLiteral("8,192"));
    QCOMPARE(panel->value(QStringLiteral("offsetMeasured")), QStringLiteral("0"));
    QCOMPARE(panel->value(QStringLiteral("physicalAssumed")), QStringLiteral("8,192"));
    QVERIFY2(panel->value(QStringLiteral("physicalSource")).contains(QLatin1String("measured")),
             qPrintable(panel->value(QStringLiteral("physicalSource"))));
    QVERIFY2(panel->value(QStringLiteral("driveAnswer")).contains(QLatin1String("loop device")),
             qPrintable(panel->value(QStringLiteral("driveAnswer"))));
    QVERIFY(panel->toPlainText().contains(QLatin1String("Physical sector (measured): 8,192")));

    // Partition 2 at 10248 × 512 = 5246976 = 640.5 × 8192: misaligned against the measurement.
    PartitionModel *model = window.partitionModel();
    const int row = guitest::rowOfPartition(*model, 2);
    QVERIFY(row >= 0);
    window.regionSelection()->setCurrentIndex(model->index(row, 0),
                                              QItemSelectionModel::ClearAndSelect);
    QCOMPARE(panel->value(QStringLiteral("startModPhysical")), QStringLiteral("4,096 bytes"));
    savePanel(panel, QStringLiteral("driveinfo-measured-loop"));

    // The sector ruler draws the measured 8 KiB sectors and quotes the measured penalty.
    QCOMPARE(ruler->ruler()->ruler().physicalSize, 8192);
    QVERIFY(ruler->ruler()->ruler().blocksStraddle());
    QVERIFY2(ruler->caption().contains(QLatin1String("Measured on this drive")) &&
                 ruler->caption().contains(QLatin1String("4.2 times")),
             qPrintable(ruler->caption()));
    QVERIFY(!ruler->caption().contains(QLatin1String("3 to 25")));
    guitest::saveScreenshot(ruler, QStringLiteral("ruler-measured-loop"));
}

// A loop device whose table was rewritten without the kernel being told: the kernel still has
// partition 1 at sector 10248, the table has it at 2048. The panel's Disk group says so, where
// a disk read as the kernel sees it has no Warnings row at all.
void DriveInfoPanelTest::staleKernelPartitionIsWarned()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString image = m_dir.filePath(QStringLiteral("stale.img"));
    runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("16M"), image});
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), loop.path()},
                    "label: gpt\nstart=10248, size=8192\n")
                .ok());
    QVERIFY(loop.addPartitions());
    MainWindow window;
    window.resize(1200, 900);
    window.show();
    QVERIFY(guitest::openAndWait(window, loop.path()));
    InfoPanel *panel = window.infoPanel();
    QCOMPARE(panel->value(QStringLiteral("diskWarnings")), QString());

    runTool(QStringLiteral("sfdisk"),
            {QStringLiteral("-q"), QStringLiteral("--no-reread"), loop.path()},
            "label: gpt\nstart=2048, size=8192\n");
    QVERIFY(guitest::openAndWait(window, loop.path()));
    const QString warning = panel->value(QStringLiteral("diskWarnings"));
    QVERIFY2(warning.contains(QLatin1String("The kernel still places partition 1 at sector "
                                            "10248")) &&
                 warning.contains(QLatin1String("partx -u")),
             qPrintable(warning));
    savePanel(panel, QStringLiteral("driveinfo-stale-partition"));

    // Selected, the partition is not titled with the node that shows other sectors.
    PartitionModel *model = window.partitionModel();
    const int row = guitest::rowOfPartition(*model, 1);
    QVERIFY(row >= 0);
    window.regionSelection()->setCurrentIndex(model->index(row, 0),
                                              QItemSelectionModel::ClearAndSelect);
    const QString heading = panel->toPlainText().section(QLatin1Char('\n'), 0, 0);
    QVERIFY2(!heading.contains(loop.path()) && heading.contains(QLatin1String("1")),
             qPrintable(heading));
    savePanel(panel, QStringLiteral("driveinfo-stale-partition-selected"));
}

// A drive SMART calls failing: the panel says so with the counters, and the device chooser's
// entry carries a badge.
void DriveInfoPanelTest::failingDriveAtAGlance()
{
    const QString image = makeImage(QStringLiteral("failing.img"));
    DiskReadResult read = readDisk(image);
    QVERIFY2(read.ok, qPrintable(read.error));
    QFile f((pwtest::buildSetting("DRIVE_FIXTURES") + QStringLiteral("/ata-failing-hdd.json")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    read.layout.device.isImage = false;
    read.layout.device.path = QStringLiteral("/dev/sdb");
    read.layout.device.drive = parseSmartctlJson(f.readAll());

    MainWindow window;
    window.resize(1200, 900);
    window.show();
    window.partitionModel()->setDisk(read.layout, analyzeAlignment(read.layout, {}));
    const QString health = window.infoPanel()->value(QStringLiteral("driveHealth"));
    QVERIFY2(health.startsWith(QLatin1String("FAILING")) &&
                 health.contains(QLatin1String("1520 reallocated sectors")) &&
                 health.contains(QLatin1String("copy your data off")) == false &&
                 health.contains(QLatin1String("Copy your data off now")),
             qPrintable(health));
    savePanel(window.infoPanel(), QStringLiteral("driveinfo-failing"));

    DiskListModel chooser;
    chooser.addDisk(QStringLiteral("/dev/sdb"), false);
    read.ok = true;
    chooser.setResult(QStringLiteral("/dev/sdb"), read);
    const QString entry = chooser.index(0).data().toString();
    QVERIFY2(entry.contains(QLatin1String("SMART FAILING")), qPrintable(entry));
}

void DriveInfoPanelTest::driveThatAnswered()
{
    const QString image = makeImage(QStringLiteral("answered.img"));
    DiskReadResult read = readDisk(image);
    QVERIFY2(read.ok, qPrintable(read.error));
    // What a SATA 512e disk says (the recorded answer), on a disk whose kernel says 512/512.
    QFile f((pwtest::buildSetting("DRIVE_FIXTURES") + QStringLiteral("/ata-512e-hdd.json")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    DiskLayout layout = read.layout;
    layout.device.isImage = false;
    layout.device.path = QStringLiteral("/dev/sda");
    layout.device.drive = parseSmartctlJson(f.readAll());
    layout.device.topology.physicalSectorSizeDrive = layout.device.drive.physicalBlockSize;
    AlignmentPolicy trusting;
    trusting.trustDrive = true; // so the drive's own 4096 is what "reported" means

    MainWindow window;
    window.resize(1200, 900);
    window.show();
    window.partitionModel()->setDisk(layout, analyzeAlignment(layout, trusting));
    InfoPanel *panel = window.infoPanel();
    QCOMPARE(panel->value(QStringLiteral("physicalReported")), QStringLiteral("512"));
    QCOMPARE(panel->value(QStringLiteral("physicalDrive")), QStringLiteral("4,096"));
    QCOMPARE(panel->value(QStringLiteral("physicalMeasured")), QStringLiteral("–"));
    QCOMPARE(panel->value(QStringLiteral("physicalAssumed")), QStringLiteral("4,096"));
    QVERIFY(panel->value(QStringLiteral("physicalSource")).contains(QLatin1String("reported")));
    QCOMPARE(panel->value(QStringLiteral("driveModel")), QStringLiteral("ST4000DM004-2CV104"));
    QCOMPARE(panel->value(QStringLiteral("driveSerial")), QStringLiteral("ZFN0PW4K"));
    QCOMPARE(panel->value(QStringLiteral("driveFirmware")), QStringLiteral("0001"));
    QCOMPARE(panel->value(QStringLiteral("driveWwn")), QStringLiteral("5 000c50 2dfdc1c35"));
    QCOMPARE(panel->value(QStringLiteral("driveRotation")), QStringLiteral("5425 rpm"));
    QVERIFY2(panel->value(QStringLiteral("driveHealth")).startsWith(QLatin1String("good")),
             qPrintable(panel->value(QStringLiteral("driveHealth"))));
    QVERIFY(panel->value(QStringLiteral("driveAnswer")).contains(QLatin1String("ATA")));
    savePanel(panel, QStringLiteral("driveinfo-ata-answered"));
}

QTEST_MAIN(DriveInfoPanelTest)
#include "tst_driveinfopanel.moc"
