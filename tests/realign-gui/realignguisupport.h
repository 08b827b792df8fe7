// Disks and windows for the realignment wizard tests: an MBR image with a misaligned ext4
// (files whose digests are kept) built with sfdisk and mkfs.ext4, and Partwise's main window
// with the editing and realignment halves installed.
#pragma once

#include "window/mainwindow.h"
#include "realign/realigncontroller.h"
#include "toolrun.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

class PartitionModel;
class QTreeWidget;
class QWidget;
class RealignPlanPage;
class RealignRunPage;
class RealignWizard;

constexpr qint64 kSector = 512;
constexpr qint64 kGrainSectors = 2048; // ARCHITECTURE.md: 1 MiB of 512-byte sectors
constexpr qint64 kFourKSectors = 8;

// ARCHITECTURE.md: a partition with room after it moves up to the next boundary, keeping its size.
qint64 nextBoundary(qint64 start, qint64 unit);

// For initTestCase: the suite's own settings (organisation PartwiseTests, `application`),
// cleared.
void useFreshSettings(const QString &application);

// "TOOL is not installed" for the first of `tools` not on the PATH, or empty: a reason to skip.
QString missingTool(const QStringList &tools);

// Saves a picture of `widget` to <build>/screenshots/NAME.png and returns its path.
QString screenshot(QWidget *widget, const QString &name);

struct TestDisk
{
    QString image;
    QString sourceDir;                 // the tree mkfs.ext4 -d copied into partition 1
    QMap<QString, QByteArray> digests; // file name -> SHA-256 of what was written
    qint64 p1Start = 0, p1Size = 0, p2Start = 0;
};

// MBR: p1 at the legacy sector 63 (ext4 holding a few files, room after it), p2 on a 4 KiB
// boundary but not on 1 MiB (sector-aligned, optional).
struct DiskShape
{
    qint64 bigFileBytes = 20 << 20;
    qint64 p1Sectors = 61440; // 30 MiB from sector 63
    qint64 p2Start = 81928;   // 8 × 10241: on 4 KiB, not on 1 MiB
    qint64 imageBytes = 64 << 20;
    QString rest{}; // sfdisk lines after partition 1 instead of p2 (an extended partition, ...)
};

bool buildDisk(const QString &folder, const QString &name, const DiskShape &shape, TestDisk *disk,
               QString *error);

// Makes an empty ext4 of `sectors` at `startSector` of the image (a second partition).
bool formatExt4(const QString &image, qint64 startSector, qint64 sectors, const QString &label,
                QString *error);

// Makes a filesystem whose mkfs cannot write at an offset (exFAT): `mkfs args FILE` on a scratch
// file of `sectors`, then copied into the image at `startSector`.
bool placeFilesystem(const QString &image, qint64 startSector, qint64 sectors, const QString &mkfs,
                     const QStringList &args, QString *error);

// The ext4 at `startSector` of the image, as e2fsprogs name it.
QString fsAt(const QString &image, qint64 startSector);

// e2fsck -fn of the ext4 at `startSector` of the image.
pwtest::ToolResult checkExt4(const QString &image, qint64 startSector);

// Every file of the tree, read back with debugfs from the partition's new place.
QStringList changedFiles(const TestDisk &disk, qint64 startSector);

int rowOfPartition(const PartitionModel &model, int number);

// Partition number -> new start, as the plan page's table lists it.
QMap<int, qint64> plannedStarts(const QTreeWidget *table);

// Waits up to a minute for the plan page's plan: whether it came.
bool waitForPlan(RealignPlanPage *plan);
// Next, from the choose page: the plan page once its plan is in, or nullptr after a minute.
RealignPlanPage *nextToPlan(RealignWizard *wizard);
// Waits up to five minutes for the run to end: whether it did.
bool waitForRun(RealignRunPage *run);
// Next (Realign), from the plan page: the run page once the run has ended, or nullptr after
// five minutes.
RealignRunPage *runPlan(RealignWizard *wizard);

struct Window
{
    MainWindow window;
    RealignController *realign = nullptr;

    explicit Window(const QString &backupRoot);
    bool open(const QString &image);
    // Realign… on the disk opened: the wizard, or nullptr when it did not open.
    RealignWizard *openWizard();
    // Waits up to five seconds for the wizard, accepted or rejected, to be gone.
    bool wizardClosed();
    // Opens `image` and the wizard, then Next to the plan, checking on the way (QVERIFY,
    // QCOMPARE) that the choose page picked partition 1 alone and that the plan was made. After
    // a failed check the test has failed (QTest::currentTestFailed()) and the pointers may be
    // null.
    void openPlanOfPartition1(const QString &image, RealignWizard **wizard, RealignPlanPage **plan);
    // Opens the wizard on the disk opened and goes to the plan page: what it says about where
    // the journal is kept (empty when nothing), or "(...)" when it got no plan. A non-empty
    // warning is saved as screenshot `screenshotName` when one is given.
    QString planJournalWarning(const QString &screenshotName = QString());
};
