// What the drive itself reports, through smartctl's JSON: recorded answers of an ATA 512e disk,
// a SAS disk, an NVMe SSD, a USB bridge that passes nothing and a refused open (see
// fixtures/README.md for where their shapes come from), then the real smartctl against a loop
// device, which has no drive behind it to ask.
#include "buildsetting.h"
#include "device/drivehealth.h"
#include "device/drivereport.h"
#include "table/diskreader.h"

#include "loopdevice.h"
#include "toolrun.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace pwtest;

namespace {

DriveReport parseFixture(const char *name)
{
    QFile f((pwtest::buildSetting("DRIVE_FIXTURES") + QStringLiteral("/")) + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", name);
    return parseSmartctlJson(f.readAll());
}

bool smartctlInstalled()
{
    return runTool(QStringLiteral("smartctl"), {QStringLiteral("--version")}).ok();
}

} // namespace

class DriveReportTest : public QObject
{
    Q_OBJECT

private slots:
    void ata512eHardDisk();
    void sasDisk();
    void scsiDiskWithoutExponent();
    void nvmeSsd();
    void usbBridgeUnknown();
    void usbBridgeAskedAsSatAnswersNothing();
    void permissionDenied();
    void failingHealth();
    void healthAtAGlance_data();
    void healthAtAGlance();
    void notJson();
    void imageFileIsNotAsked();
    void missingSmartctlNamesThePackage();
    void loopDeviceCannotBeAsked();
    void readDiskAsksOnlyWhenTold();

private:
    QTemporaryDir m_dir;
};

void DriveReportTest::ata512eHardDisk()
{
    const DriveReport r = parseFixture("ata-512e-hdd.json");
    QVERIFY(r.asked);
    QVERIFY2(r.answered, qPrintable(r.reason));
    QCOMPARE(r.smartctlVersion, QStringLiteral("7.3"));
    QCOMPARE(r.protocol, QStringLiteral("ATA"));
    QCOMPARE(r.deviceType, QStringLiteral("sat"));
    QCOMPARE(r.model, QStringLiteral("ST4000DM004-2CV104"));
    QCOMPARE(r.serial, QStringLiteral("ZFN0PW4K"));
    QCOMPARE(r.firmware, QStringLiteral("0001"));
    // smartctl's text prints "LU WWN Device Id: 5 000c50 2dfdc1c35" for naa 5, oui 3152,
    // id 12345678901 (0xc50 = 3152, 0x2dfdc1c35 = 12345678901).
    QCOMPARE(r.wwn, QStringLiteral("5 000c50 2dfdc1c35"));
    QCOMPARE(r.rotationRate, std::optional<int>(5425));
    QCOMPARE(r.logicalBlockSize, 512);
    QCOMPARE(r.physicalBlockSize, 4096);
    QCOMPARE(r.smartPassed, std::optional<bool>(true));
    QVERIFY(r.reason.isEmpty());
}

void DriveReportTest::sasDisk()
{
    const DriveReport r = parseFixture("scsi-sas-disk.json");
    QVERIFY(r.answered);
    QCOMPARE(r.protocol, QStringLiteral("SCSI"));
    QCOMPARE(r.model, QStringLiteral("SEAGATE ST1200MM0129"));
    QCOMPARE(r.firmware, QStringLiteral("C003"));
    QCOMPARE(r.serial, QStringLiteral("WFK0PW5S0000E9251ABC"));
    QCOMPARE(r.wwn, QStringLiteral("0x5000c500b1d2e3f4"));
    QCOMPARE(r.rotationRate, std::optional<int>(10000));
    QCOMPARE(r.logicalBlockSize, 512);
    QCOMPARE(r.physicalBlockSize, 4096);
    QCOMPARE(r.smartPassed, std::optional<bool>(true));
}

void DriveReportTest::scsiDiskWithoutExponent()
{
    // READ CAPACITY(16) with exponent 0: smartctl writes no "physical_block_size".
    const DriveReport r = parseSmartctlJson(
        R"({"smartctl":{"version":[7,3],"exit_status":0},
            "device":{"name":"/dev/sdd","info_name":"/dev/sdd","type":"scsi","protocol":"SCSI"},
            "scsi_model_name":"HGST HUC101812CSS200","scsi_revision":"A3B0",
            "logical_block_size":512,"rotation_rate":10020})");
    QVERIFY(r.answered);
    QCOMPARE(r.logicalBlockSize, 512);
    QCOMPARE(r.physicalBlockSize, 512);
    QCOMPARE(r.smartPassed, std::optional<bool>());
}

void DriveReportTest::nvmeSsd()
{
    const DriveReport r = parseFixture("nvme-ssd.json");
    QVERIFY(r.answered);
    QCOMPARE(r.protocol, QStringLiteral("NVMe"));
    QCOMPARE(r.model, QStringLiteral("Samsung SSD 970 EVO Plus 1TB"));
    QCOMPARE(r.firmware, QStringLiteral("2B2QEXM7"));
    // oui 9528 = 0x002538, ext_id 382252089377 = 0x5900000021.
    QCOMPARE(r.wwn, QStringLiteral("eui.0025385900000021"));
    QCOMPARE(r.logicalBlockSize, 512);
    QCOMPARE(r.physicalBlockSize, 0); // NVMe Identify gives no physical size to smartctl 7.3
    QCOMPARE(r.rotationRate, std::optional<int>());
    QCOMPARE(r.smartPassed, std::optional<bool>(true));
}

void DriveReportTest::usbBridgeUnknown()
{
    const DriveReport r = parseFixture("usb-unknown-bridge.json");
    QVERIFY(r.asked);
    QVERIFY(!r.answered);
    QVERIFY(r.deviceTypeUnknown); // readDriveReport() asks again with -d sat
    QVERIFY2(r.reason.contains(QLatin1String("Unknown USB bridge [0x152d:0x0578")),
             qPrintable(r.reason));
}

void DriveReportTest::usbBridgeAskedAsSatAnswersNothing()
{
    const DriveReport r = parseFixture("usb-sat-no-answer.json");
    QVERIFY(!r.answered);
    QVERIFY(!r.deviceTypeUnknown);
    QCOMPARE(r.deviceType, QStringLiteral("sat"));
    QVERIFY2(r.reason.contains(QLatin1String("did not identify itself")) &&
                 r.reason.contains(QLatin1String("USB bridge")),
             qPrintable(r.reason));
}

void DriveReportTest::permissionDenied()
{
    const DriveReport r = parseFixture("permission-denied.json");
    QVERIFY(!r.answered);
    QVERIFY2(r.reason.startsWith(QLatin1String("Permission denied")) &&
                 r.reason.contains(QLatin1String("root")),
             qPrintable(r.reason));
}

void DriveReportTest::failingHealth()
{
    const DriveReport r = parseSmartctlJson(
        R"({"smartctl":{"version":[7,3],"exit_status":8},
            "device":{"name":"/dev/sda","type":"sat","protocol":"ATA"},
            "model_name":"WDC WD10EZEX-08WN4A0","logical_block_size":512,
            "physical_block_size":4096,"smart_status":{"passed":false}})");
    QVERIFY(r.answered);
    QCOMPARE(r.smartPassed, std::optional<bool>(false));
}

// The failure predictors, from `smartctl -A`'s attributes and NVMe health log as recorded in
// the fixtures (fixtures/README.md), and the one status a person acts on.
void DriveReportTest::healthAtAGlance_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("status");
    QTest::addColumn<qint64>("reallocated");
    QTest::addColumn<QString>("finding");
    QTest::newRow("healthy ATA") << QStringLiteral("ata-512e-hdd-attributes.json")
                                 << QStringLiteral("good") << qint64(0) << QString();
    QTest::newRow("reallocating ATA")
        << QStringLiteral("ata-reallocating-hdd.json") << QStringLiteral("warning") << qint64(8)
        << QStringLiteral("8 reallocated sectors");
    QTest::newRow("failing ATA") << QStringLiteral("ata-failing-hdd.json")
                                 << QStringLiteral("failing") << qint64(1520)
                                 << QStringLiteral("48 sectors pending reallocation");
    QTest::newRow("NVMe") << QStringLiteral("nvme-ssd-attributes.json") << QStringLiteral("good")
                          << qint64(-1) << QString();
    QTest::newRow("no attributes asked")
        << QStringLiteral("ata-512e-hdd.json") << QStringLiteral("good") << qint64(-1) << QString();
}

void DriveReportTest::healthAtAGlance()
{
    QFETCH(QString, fixture);
    QFETCH(QString, status);
    QFETCH(qint64, reallocated);
    QFETCH(QString, finding);
    QFile f((pwtest::buildSetting("DRIVE_FIXTURES") + QStringLiteral("/")) + fixture);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const DriveReport r = parseSmartctlJson(f.readAll());
    QVERIFY(r.answered);
    QCOMPARE(r.reallocatedSectors.value_or(-1), reallocated);
    const DriveHealth health = judgeDriveHealth(r);
    QCOMPARE(driveHealthName(health.status), status);
    if (!finding.isEmpty())
        QVERIFY2(health.findings.contains(finding),
                 qPrintable(health.findings.join(QLatin1Char('|'))));
    QCOMPARE(health.risky(), status != QLatin1String("good"));
    if (health.risky())
        QVERIFY(riskyDriveWarning(QStringLiteral("/dev/sdb"), health)
                    .contains(QLatin1String("copy your data off first")));
    if (fixture.startsWith(QLatin1String("nvme"))) {
        QCOMPARE(r.percentageUsed.value_or(-1), 3);
        QCOMPARE(r.mediaErrors.value_or(-1), 0);
    }
}

void DriveReportTest::notJson()
{
    const DriveReport r = parseSmartctlJson("smartctl 7.3 2022-02-28 r5338\n");
    QVERIFY(!r.answered);
    QVERIFY2(r.reason.contains(QLatin1String("not JSON")), qPrintable(r.reason));
}

void DriveReportTest::imageFileIsNotAsked()
{
    const QString image = m_dir.filePath(QStringLiteral("plain.img"));
    QFile f(image);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(1 << 20));
    f.close();
    const DriveReport r = readDriveReport(image);
    QVERIFY(!r.asked);
    QVERIFY(!r.answered);
    QVERIFY2(r.reason.contains(QLatin1String("disk image file")), qPrintable(r.reason));
}

void DriveReportTest::missingSmartctlNamesThePackage()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString image = m_dir.filePath(QStringLiteral("nosmartctl.img"));
    QFile f(image);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(4 << 20));
    f.close();
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const DriveReport r =
        readDriveReport(loop.path(), 5000, m_dir.filePath(QStringLiteral("no-such-smartctl")));
    QVERIFY(!r.answered);
    QVERIFY2(r.reason.contains(QLatin1String("smartmontools")), qPrintable(r.reason));
}

void DriveReportTest::loopDeviceCannotBeAsked()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    if (!smartctlInstalled())
        QSKIP("smartctl is not installed (Debian package smartmontools)");
    const QString image = m_dir.filePath(QStringLiteral("loop.img"));
    QFile f(image);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(4 << 20));
    f.close();
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));

    // The real smartctl: it cannot tell what kind of device a loop device is.
    const ToolResult raw =
        runTool(QStringLiteral("smartctl"), {QStringLiteral("--json=c"), QStringLiteral("-i"),
                                             QStringLiteral("-H"), loop.path()});
    QVERIFY2(raw.out.contains("Unable to detect device type"), raw.out.constData());

    QElapsedTimer timer;
    timer.start();
    const DriveReport r = readDriveReport(loop.path());
    qInfo("smartctl on %s took %lld ms: %s", qPrintable(loop.path()), timer.elapsed(),
          qPrintable(r.reason));
    QVERIFY(r.asked);
    QVERIFY(!r.answered);
    QVERIFY(r.deviceTypeUnknown);
    QCOMPARE(r.smartctlVersion.isEmpty(), false);
    QVERIFY2(r.reason.contains(QLatin1String("loop device")) &&
                 r.reason.contains(QFileInfo(image).canonicalFilePath()),
             qPrintable(r.reason));
    QCOMPARE(r.physicalBlockSize, 0);
}

void DriveReportTest::readDiskAsksOnlyWhenTold()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    if (!smartctlInstalled())
        QSKIP("smartctl is not installed (Debian package smartmontools)");
    const QString image = m_dir.filePath(QStringLiteral("read.img"));
    QVERIFY(runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("8M"), image})
                .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nstart=2048, size=4096\n")
                .ok());
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));

    const DiskReadResult quiet = readDisk(loop.path());
    QVERIFY2(quiet.ok, qPrintable(quiet.error));
    QVERIFY(!quiet.layout.device.drive.asked);
    QVERIFY(quiet.layout.device.drive.reason.isEmpty());

    DiskReadOptions ask;
    ask.askDrive = true;
    const DiskReadResult asked = readDisk(loop.path(), ask);
    QVERIFY2(asked.ok, qPrintable(asked.error));
    QVERIFY(asked.layout.device.drive.asked);
    QVERIFY(!asked.layout.device.drive.answered);
    QVERIFY(asked.layout.device.drive.reason.contains(QLatin1String("loop device")));
    QCOMPARE(asked.layout.device.topology.physicalSectorSizeDrive, 0);
}

QTEST_GUILESS_MAIN(DriveReportTest)
#include "tst_drivereport.moc"
