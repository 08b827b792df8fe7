// Drive → Measure Physical Sector…: the dialog shows a result as words and a chart (a made-up
// result, grabbed to <build>/screenshots/), measures a lying drive in the background and
// remembers what it found, can be cancelled, and says why an image file is not measured. The
// main window offers it in its Drive menu, also for a disk its helper reads (the helper probes
// it, the window shows the progress and the verdict, a helper that dies mid-probe is said
// so). The drives need root; under CI=true they must run.
#include "alignmentstyle.h"
#include "buildsetting.h"
#include "clirun.h"
#include "disklistmodel.h"
#include "filechecksum.h"
#include "guitestsupport.h"
#include "helper/helperconnection.h"
#include "helper/helperproberunner.h"
#include "helper/remotemachines.h"
#include "loopdevice.h"
#include "lyingdrivefixture.h"
#include "probe/probechart.h"
#include "probe/probedialog.h"
#include "uitranslations.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace partwise;

using namespace pwtest;

namespace {

// A result as a 512e drive with the XP jumper would give it: 4 KiB writes pay 2 ms except at
// offset 3584, larger writes all straddle.
ProbeReport madeUpResult()
{
    ProbeReport r;
    r.run.outcome = SectorProbeRun::Outcome::Measured;
    r.run.path = QStringLiteral("/dev/sdz");
    r.run.cells = probeCells(512);
    for (int p = 0; p < 8; ++p)
        r.run.places << ProbePlace{(p + 1) * (64LL << 20), QStringLiteral("free space")};
    for (int p = 0; p < 8; ++p)
        for (int c = 0; c < r.run.cells.size(); ++c) {
            const ProbeCell &cell = r.run.cells[c];
            const bool whole = cell.unitBytes == 4096 && cell.offsetBytes == 3584;
            r.run.samples << ProbeSample{p, c, (whole ? 400.0 : 2400.0) + cell.unitBytes / 100.0};
        }
    r.run.roundsDone = 1;
    r.run.elapsedMs = 1234;
    r.writes = int(r.run.samples.size());
    r.verdict = analyseProbe(r.run);
    r.memory.key = QStringLiteral("serial:Z0000");
    r.memory.saved = true;
    return r;
}

// The 64 MiB file a lying drive shows.
bool makeBacking(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.resize(64 << 20);
}

// The physical sector size the drive store remembers for a lying drive (read as JSON here,
// not through the store's own code); 0 when none.
qint64 rememberedSectorSize(const QString &store, const LyingDrive &drive)
{
    QFile file(store);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return QJsonDocument::fromJson(file.readAll())
        .object()
        .value(QStringLiteral("loop:") + QFileInfo(drive.file()).canonicalFilePath())
        .toObject()
        .value(QStringLiteral("physical_sector_size"))
        .toInteger();
}

int countColour(const QImage &image, const QColor &target)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += image.pixelColor(x, y) == target;
    return count;
}

} // namespace

class TestProbeDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void showsVerdictAndChart();
    void measuresLyingDrive();
    void cancels();
    void refusesImageFile();
    void mainWindowOffersIt();
    void imagesAreNotMeasured();
    void measuresThroughHelper();
    void helperClosedDuringProbe();
    void speaksGerman(); // last: the catalogue stays installed

private:
    QTemporaryDir m_dir;
    QString m_store;
};

void TestProbeDialog::initTestCase()
{
    QVERIFY(m_dir.isValid());
    guitest::useTestSettings();
    m_store = m_dir.filePath(QStringLiteral("drives.json"));
    qputenv("PARTWISE_DRIVE_STORE", QFile::encodeName(m_store));
}

void TestProbeDialog::showsVerdictAndChart()
{
    ProbeDialog dialog(QStringLiteral("/dev/sdz"));
    dialog.show();
    const ProbeReport result = madeUpResult();
    QCOMPARE(result.verdict.kind, ProbeVerdict::Kind::Penalty);
    dialog.showResult(result);
    QVERIFY(dialog.verdictShown().startsWith(
        QStringLiteral("Physical sector 4096 bytes, offset 3584: writes that straddle it took")));
    QCOMPARE(dialog.chart()->timings().size(), probeCells(512).size());
    QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("probeDetails"))
                ->text()
                .contains(QStringLiteral("Remembered for this drive")));
    const QString shot = guitest::saveScreenshot(&dialog, QStringLiteral("probe-dialog-xp"));
    const QImage chart = dialog.chart()->grab().toImage();
    // One green bar (4 KiB at 3584) and 21 red ones, in the disk map's colours.
    const int red = countColour(chart, QColor(211, 32, 32));
    const int green = countColour(chart, AlignmentStyle::outlineColor(AlignmentStatus::Aligned));
    QVERIFY2(red > 10 * green && green > 20,
             qPrintable(QStringLiteral("%1 red, %2 green in %3").arg(red).arg(green).arg(shot)));
}

void TestProbeDialog::measuresLyingDrive()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString backing = m_dir.filePath(QStringLiteral("gui.img"));
    QVERIFY(makeBacking(backing));
    const QByteArray before = fileSha256(backing);
    {
        LyingDriveSpec spec;
        spec.physical = 8192;
        LyingDrive drive(pwtest::buildSetting("LYING_DRIVE"), backing,
                         m_dir.filePath(QStringLiteral("g")), spec);
        QVERIFY2(drive.ok(), qPrintable(drive.error()));
        ProbeDialog dialog(drive.device());
        dialog.show();
        QSignalSpy finished(&dialog, &ProbeDialog::probeFinished);
        QSignalSpy changed(&dialog, &ProbeDialog::measurementChanged);
        dialog.findChild<QPushButton *>(QStringLiteral("probeMeasure"))->click();
        QVERIFY(dialog.isRunning());
        QVERIFY(finished.wait(30000));
        QVERIFY2(dialog.verdictShown().startsWith(QStringLiteral("Physical sector 8192 bytes, "
                                                                 "offset 0:")),
                 qPrintable(dialog.verdictShown()));
        QCOMPARE(changed.size(), 1);
        guitest::saveScreenshot(&dialog, QStringLiteral("probe-dialog-lying-8192"));
        QCOMPARE(rememberedSectorSize(m_store, drive), 8192);
    }
    QCOMPARE(fileSha256(backing), before);
}

void TestProbeDialog::cancels()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString backing = m_dir.filePath(QStringLiteral("cancel.img"));
    QVERIFY(makeBacking(backing));
    LyingDriveSpec spec;
    spec.penaltyMs = 20; // slow enough to be caught in the middle
    LyingDrive drive(pwtest::buildSetting("LYING_DRIVE"), backing,
                     m_dir.filePath(QStringLiteral("c")), spec);
    QVERIFY2(drive.ok(), qPrintable(drive.error()));
    ProbeDialog dialog(drive.device());
    dialog.show();
    QSignalSpy finished(&dialog, &ProbeDialog::probeFinished);
    dialog.start();
    QTest::qWait(500);
    QVERIFY(dialog.isRunning());
    dialog.findChild<QPushButton *>(QStringLiteral("probeCancel"))->click();
    QVERIFY(finished.wait(5000));
    QVERIFY(dialog.verdictShown().startsWith(QStringLiteral("Cancelled")));
}

void TestProbeDialog::refusesImageFile()
{
    const QString image = m_dir.filePath(QStringLiteral("file.img"));
    QFile f(image);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize(8 << 20));
    f.close();
    ProbeDialog dialog(image);
    dialog.show();
    QSignalSpy finished(&dialog, &ProbeDialog::probeFinished);
    dialog.start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(dialog.verdictShown(), QStringLiteral("The drive was not measured."));
    QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("probeDetails"))
                ->text()
                .contains(QStringLiteral("is not a block device")));
    QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("probeMeasure"))->isEnabled());
    guitest::saveScreenshot(&dialog, QStringLiteral("probe-dialog-image-refused"));
}

// An image has no physical sector of its own: Measure is offered only for drives, and its
// tooltip says why it is not for the image shown, before anyone opens the dialog.
void TestProbeDialog::imagesAreNotMeasured()
{
    const QString image = m_dir.filePath(QStringLiteral("not-a-drive.img"));
    QVERIFY(makeBacking(image));
    MainWindow window;
    window.openImage(image);
    QTRY_COMPARE(window.currentPath(), image);
    QAction *action = window.findChild<QAction *>(QStringLiteral("measureSectorAction"));
    QVERIFY(!action->isEnabled());
    QVERIFY2(action->toolTip().contains(QStringLiteral("disk image")),
             qPrintable(action->toolTip()));
}

void TestProbeDialog::mainWindowOffersIt()
{
    MainWindow window;
    QAction *action = window.findChild<QAction *>(QStringLiteral("measureSectorAction"));
    QVERIFY(action);
    auto *menu = window.findChild<QMenu *>(QStringLiteral("driveMenu"));
    QVERIFY(menu && menu->actions().contains(action));
    action->trigger();
    auto *dialog = window.findChild<ProbeDialog *>(QStringLiteral("probeDialog"));
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    dialog->close();
}

// This computer's disks as a window run as a user sees them: through the helper (here the
// stand-in for pkexec only starts it). Measure Physical Sector on the lying drive is run by
// the helper; the dialog names the drive and its machine, shows the helper's progress and
// verdict, the helper's store remembers it, and the disk read again shows the measured size.
// A helper killed during a second probe leaves the dialog saying so, ready to close.
void TestProbeDialog::measuresThroughHelper()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString pkexec = m_dir.filePath(QStringLiteral("pkexec"));
    QFile script(pkexec);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\nexec \"$@\"\n");
    script.close();
    QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner));
    qputenv("PARTWISE_PKEXEC", QFile::encodeName(pkexec));
    const QString cliFolder = QFileInfo(pwtest::buildSetting("PARTWISE_CLI")).absolutePath();
    qputenv("PATH", (cliFolder + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());

    const QString backing = m_dir.filePath(QStringLiteral("helper.img"));
    QVERIFY(makeBacking(backing));
    const QByteArray before = fileSha256(backing);
    {
        LyingDriveSpec spec;
        spec.physical = 16384;
        LyingDrive drive(pwtest::buildSetting("LYING_DRIVE"), backing,
                         m_dir.filePath(QStringLiteral("h")), spec);
        QVERIFY2(drive.ok(), qPrintable(drive.error()));
        MainWindow window;
        RemoteMachines *machines = installRemoteMachines(&window);
        QSignalSpy read(machines, &RemoteMachines::machineRead);
        machines->connectToThisMachine();
        QVERIFY(read.wait(120000));
        const QString machine = QSysInfo::machineHostName();
        const QString key = DiskListModel::machineKey(machine, drive.device());
        const int row = window.diskList()->rowOf(key);
        QVERIFY2(row >= 0, "the lying drive is not among this computer's disks");
        window.findChild<QComboBox *>(QStringLiteral("deviceChooser"))->setCurrentIndex(row);
        QTRY_COMPARE(window.currentPath(), key);
        QCOMPARE(window.diskList()->entry(row).layout.device.topology.physicalSectorSizeMeasured,
                 0);

        window.findChild<QAction *>(QStringLiteral("measureSectorAction"))->trigger();
        auto *dialog = window.findChild<ProbeDialog *>(QStringLiteral("probeDialog"));
        QVERIFY2(dialog, "Measure Physical Sector refused the helper's disk");
        QVERIFY(qobject_cast<HelperProbeRunner *>(dialog->findChild<ProbeRunner *>()));
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("probeIntro"))
                    ->text()
                    .contains(QStringLiteral("%1 on %2").arg(drive.device(), machine)));
        QSignalSpy progress(dialog->findChild<ProbeRunner *>(), &ProbeRunner::progress);
        QSignalSpy finished(dialog, &ProbeDialog::probeFinished);
        dialog->findChild<QPushButton *>(QStringLiteral("probeMeasure"))->click();
        QVERIFY(dialog->isRunning());
        QVERIFY(finished.wait(60000));
        QVERIFY2(dialog->verdictShown().startsWith(
                     QStringLiteral("Physical sector 16384 bytes, offset 0:")),
                 qPrintable(dialog->verdictShown() +
                            dialog->findChild<QLabel *>(QStringLiteral("probeDetails"))->text()));
        QVERIFY2(progress.size() >= 3, "the helper's progress did not reach the dialog");
        QVERIFY(progress.last().first().toDouble() > 0.9);
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("probeDetails"))
                    ->text()
                    .contains(QStringLiteral("Remembered for this drive")));
        guitest::saveScreenshot(dialog, QStringLiteral("probe-dialog-through-helper"));
        // Remembered by the helper, where the drive is, and shown once the disk is read again.
        QCOMPARE(rememberedSectorSize(m_store, drive), 16384);
        QTRY_COMPARE_WITH_TIMEOUT(
            window.diskList()->entry(row).layout.device.topology.physicalSectorSizeMeasured, 16384,
            30000);

        // The helper dies while it probes: the dialog says the drive was not measured and why.
        HelperConnection *helper = machines->connection(machine);
        QVERIFY(helper && helper->processId() > 0);
        finished.clear();
        dialog->start();
        QTRY_VERIFY(dialog->findChild<QProgressBar *>(QStringLiteral("probeProgress"))->value() >
                    0);
        QVERIFY(::kill(pid_t(helper->processId()), SIGKILL) == 0);
        QVERIFY(finished.wait(10000));
        QCOMPARE(dialog->verdictShown(), QStringLiteral("The drive was not measured."));
        QVERIFY(!dialog->isRunning());
        QVERIFY(!dialog->findChild<QLabel *>(QStringLiteral("probeDetails"))->text().isEmpty());
        dialog->close();
        if (QMessageBox *notice = machines->deathNotice())
            notice->close();
    }
    QCOMPARE(fileSha256(backing), before);
}

// A helper that answers `version` and then nothing (a probe under way) is closed by the window
// (a reconnect replaces it): the dialog says the drive was not measured instead of waiting.
void TestProbeDialog::helperClosedDuringProbe()
{
    const QString script = m_dir.filePath(QStringLiteral("silent-helper"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\nread line\n"
               "echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"partwise\":\"t\","
               "\"protocol\":1}}'\nexec cat >/dev/null\n");
    file.close();
    QVERIFY(file.setPermissions(file.permissions() | QFileDevice::ExeOwner));
    auto *helper = new HelperConnection({script, {}, QStringLiteral("quiet"), {}});
    QSignalSpy ready(helper, &HelperConnection::ready);
    helper->start();
    QVERIFY(ready.wait(10000));
    ProbeDialog dialog(QStringLiteral("quiet:/dev/sdq"), QStringLiteral("/dev/sdq on quiet"),
                       new HelperProbeRunner(helper, QStringLiteral("/dev/sdq")));
    dialog.show();
    QSignalSpy finished(&dialog, &ProbeDialog::probeFinished);
    dialog.start();
    QTest::qWait(200);
    QVERIFY(dialog.isRunning());
    delete helper;
    QCOMPARE(finished.size(), 1);
    QCOMPARE(dialog.verdictShown(), QStringLiteral("The drive was not measured."));
    QVERIFY(!dialog.isRunning());
}

void TestProbeDialog::speaksGerman()
{
    QVERIFY(UiTranslations::install(qApp, QLocale(QLocale::German, QLocale::Germany)));
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    ProbeDialog dialog(QStringLiteral("/dev/sdz"));
    dialog.show();
    QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("probeIntro"))
                ->text()
                .contains(QStringLiteral("Partwise misst Schreibvorgänge")));
    dialog.showResult(madeUpResult());
    QVERIFY2(dialog.verdictShown().startsWith(
                 QStringLiteral("Physischer Sektor 4096 Byte, Versatz 3584: Schreibvorgänge")),
             qPrintable(dialog.verdictShown()));
    QVERIFY(dialog.verdictShown().contains(QStringLiteral(","))); // 5,5-mal
    guitest::saveScreenshot(&dialog, QStringLiteral("probe-dialog-de"));
    QLocale::setDefault(QLocale::c());
}

QTEST_MAIN(TestProbeDialog)
#include "tst_probedialog.moc"
