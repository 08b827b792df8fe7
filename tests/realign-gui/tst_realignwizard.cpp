// The realignment wizard driven as a person would: from the banner of the main window, through
// its pages, to a disk whose ext4 partition now starts on the grain. Every expectation comes from
// sfdisk, e2fsck and debugfs, or from ARCHITECTURE.md's rule computed here, never from core/align.
#include "buildsetting.h"
#include "diskmapwidget.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "loopdevice.h"
#include "partitionmodel.h"
#include "realign/realignbanner.h"
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "realign/realignwizard.h"
#include "realign/realignworker.h"
#include "realignguisupport.h"
#include "ruler/sectorrulerwidget.h"
#include "sfdisktable.h"
#include "toolrun.h"
#include "window/mainwindow.h"
#include "window/mainwindowediting.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>

using namespace partwise;

using pwtest::runTool;
using pwtest::SfdiskTable;

class RealignWizardTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void realignsFromTheBanner();
    void fourKiBTargetIsTheSmallestMoveThenBothOnMiB();
    void cancelThenFinishAtStartUp();
    void selectionAndPendingEdits();

private:
    QTemporaryDir m_dir;
    QString m_backups;
};

void RealignWizardTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useFreshSettings(QStringLiteral("partwise-realign-gui-tests"));
    m_backups = m_dir.filePath(QStringLiteral("backups"));
    const QString missing = missingTool({QStringLiteral("sfdisk"), QStringLiteral("mkfs.ext4"),
                                         QStringLiteral("e2fsck"), QStringLiteral("debugfs")});
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
}

void RealignWizardTest::realignsFromTheBanner()
{
    TestDisk disk;
    QString error;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("legacy"), DiskShape(), &disk, &error),
             qPrintable(error));
    QCOMPARE(disk.p1Start, 63);
    const qint64 expectedStart = nextBoundary(disk.p1Start, kGrainSectors);
    const qint64 expectedEnd = expectedStart + disk.p1Size - 1;

    Window w(m_backups);
    QVERIFY(w.open(disk.image));
    RealignBanner *banner = w.realign->banner();
    QCOMPARE(banner->mode(), RealignBanner::Mode::Misaligned);
    QVERIFY(banner->isVisible());
    QVERIFY(w.realign->realignAction()->isEnabled());
    QVERIFY(w.window.diskMap()->actions().contains(w.realign->realignAction()));
    // Composed with the window's editing half: Realign… sits in its Edit menu.
    QVERIFY(w.window.editing()->editMenu()->actions().contains(w.realign->realignAction()));
    QVERIFY(w.window.partitionView()->actions().contains(w.realign->realignAction()));
    auto *editMenu = w.window.findChild<QMenu *>(QStringLiteral("editMenu"));
    QVERIFY(editMenu && editMenu->actions().contains(w.realign->realignAction()));
    screenshot(&w.window, QStringLiteral("realign-0-banner"));

    banner->button()->click();
    RealignWizard *wizard = w.realign->wizard();
    QVERIFY(wizard);
    QVERIFY(QTest::qWaitForWindowExposed(wizard));
    QVERIFY(!banner->isVisible()); // the wizard says it all
    QVERIFY(!w.realign->realignAction()->isEnabled());

    // Page 1: the problem, on a read-only map with partition 1 highlighted.
    QCOMPARE(wizard->currentId(), int(RealignWizard::IntroPageId));
    DiskMapWidget *introMap = wizard->introPage()->map()->map();
    const int p1Row = rowOfPartition(*wizard->introPage()->map()->model(), 1);
    QVERIFY(p1Row >= 0);
    QCOMPARE(introMap->highlight(p1Row), DiskMapWidget::Highlight::Warning);
    QVERIFY(wizard->introPage()->explanation().contains(QStringLiteral("at sector 63")));
    screenshot(wizard, QStringLiteral("realign-1-intro"));

    // Page 2: partition 1 chosen (misaligned), partition 2 offered (sector-aligned), 1 MiB.
    wizard->next();
    QCOMPARE(wizard->currentId(), int(RealignWizard::ChoosePageId));
    RealignChoosePage *choose = wizard->choosePage();
    QCOMPARE(choose->grainBytes(), qint64(1) << 20);
    QCOMPARE(choose->checkedPartitions(), QList<int>{1});
    QVERIFY(choose->isPartitionSelectable(2));
    screenshot(wizard, QStringLiteral("realign-2-choose"));

    // Page 3: the plan, against sfdisk's numbers and the DESIGN rule.
    wizard->next();
    QCOMPARE(wizard->currentId(), int(RealignWizard::PlanPageId));
    RealignPlanPage *plan = wizard->planPage();
    QVERIFY(QTest::qWaitFor([&] { return plan->isReady(); }, 60000));
    QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
    QTreeWidget *table = plan->moveTable();
    QCOMPARE(table->topLevelItemCount(), 1);
    QTreeWidgetItem *row = table->topLevelItem(0);
    QCOMPARE(row->data(0, Qt::UserRole).toInt(), 1);
    QCOMPARE(row->text(1).toLongLong(), disk.p1Start);
    QCOMPARE(row->text(2).toLongLong(), disk.p1Start + disk.p1Size - 1);
    QCOMPARE(row->text(3).toLongLong(), expectedStart);
    QCOMPARE(row->text(4).toLongLong(), expectedEnd);
    QVERIFY(plan->busy().isEmpty());
    // Before and after on the sector ruler: sector 63's blocks straddle, the new start's do not.
    const auto *rulerNow = plan->findChild<SectorRulerWidget *>(QStringLiteral("planRulerBefore"));
    const auto *rulerAfter = plan->findChild<SectorRulerWidget *>(QStringLiteral("planRulerAfter"));
    QVERIFY(rulerNow && rulerAfter && rulerNow->isVisible() && rulerAfter->isVisible());
    QCOMPARE(rulerNow->ruler().focusByte, disk.p1Start * 512);
    QVERIFY(rulerNow->ruler().blocksStraddle());
    QCOMPARE(rulerAfter->ruler().focusByte, expectedStart * 512);
    QVERIFY(!rulerAfter->ruler().blocksStraddle());
    QVERIFY(!wizard->button(QWizard::CommitButton)->isEnabled()); // the backup box first
    screenshot(wizard, QStringLiteral("realign-3-plan"));
    plan->backupConfirmation()->setChecked(true);
    QVERIFY(wizard->button(QWizard::CommitButton)->isEnabled());

    // Page 4: the run, on the worker thread. One picture mid-move, when the move is slow enough
    // for one progress report before the end.
    bool midMoveShot = false;
    QObject::connect(
        wizard->backend(), &RealignBackend::progress, wizard, [&](const RealignProgress &p) {
            if (!midMoveShot && p.bytesDone > 0 && p.bytesDone < p.bytesTotal) {
                midMoveShot = true;
                wizard->grab().save(pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") +
                                    QStringLiteral("/screenshots/realign-4-run-progress.png"));
            }
        });
    wizard->next();
    QCOMPARE(wizard->currentId(), int(RealignWizard::RunPageId));
    RealignRunPage *run = wizard->runPage();
    QVERIFY(QTest::qWaitFor([&] { return run->isFinished(); }, 300000));
    QVERIFY2(wizard->result().ok, qPrintable(wizard->result().error + '\n' + run->logText()));
    QCOMPARE(run->progressBar(0)->value(), run->progressBar(0)->maximum());
    QVERIFY(run->logText().contains(QStringLiteral("sectors 63–")));
    screenshot(wizard, QStringLiteral("realign-4-run"));

    // Page 5: before and after, and the checks.
    wizard->next();
    QCOMPARE(wizard->currentId(), int(RealignWizard::ResultPageId));
    RealignResultPage *result = wizard->resultPage();
    QVERIFY(result->checkLines().contains(QStringLiteral("partition 1 (ext4): clean")));
    const PartitionModel *after = result->afterMap()->model();
    const int afterRow = rowOfPartition(*after, 1);
    QVERIFY(afterRow >= 0);
    QCOMPARE(after->region(afterRow).startSector, expectedStart);
    QCOMPARE(result->afterMap()->map()->highlight(afterRow), DiskMapWidget::Highlight::None);
    QCOMPARE(
        result->beforeMap()->map()->highlight(rowOfPartition(*result->beforeMap()->model(), 1)),
        DiskMapWidget::Highlight::Warning);
    QVERIFY(!result->resumeButton()->isVisible());
    QVERIFY(!wizard->button(QWizard::BackButton)->isVisible() ||
            !wizard->button(QWizard::BackButton)->isEnabled());
    screenshot(wizard, QStringLiteral("realign-5-result"));

    // The disk itself, by independent tools.
    const SfdiskTable now = SfdiskTable::read(disk.image);
    QVERIFY2(now.ok, qPrintable(now.error));
    QCOMPARE(now.find(1)->start, expectedStart);
    QCOMPARE(now.find(1)->start % kGrainSectors, 0);
    QCOMPARE(now.find(1)->size, disk.p1Size);
    QCOMPARE(now.find(2)->start, disk.p2Start); // not chosen: untouched
    const pwtest::ToolResult fsck = checkExt4(disk.image, now.find(1)->start);
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe() + QString::fromUtf8(fsck.out)));
    QCOMPARE(changedFiles(disk, now.find(1)->start), QStringList());
    QVERIFY(!QFile::exists(WriteJournal::defaultPath(disk.image)));

    // The window read the disk again: no banner, nothing misaligned left.
    QVERIFY(QTest::qWaitFor(
        [&] {
            const auto layout = w.window.currentLayout();
            return layout && layout->partitionByNumber(1) &&
                   layout->partitionByNumber(1)->startSector == expectedStart;
        },
        60000));
    wizard->accept();
    QVERIFY(w.wizardClosed());
    QCOMPARE(banner->mode(), RealignBanner::Mode::Hidden);
    QVERIFY(w.realign->realignAction()->isEnabled()); // partition 2 is still off the grain
    screenshot(&w.window, QStringLiteral("realign-6-window-after"));
}

void RealignWizardTest::fourKiBTargetIsTheSmallestMoveThenBothOnMiB()
{
    TestDisk disk;
    QString error;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("fourk"), DiskShape{1 << 20}, &disk, &error),
             qPrintable(error));
    Window w(m_backups);
    QVERIFY(w.open(disk.image));
    RealignWizard *wizard = w.openWizard();
    QVERIFY(wizard);
    wizard->next();
    RealignChoosePage *choose = wizard->choosePage();
    choose->setGrainBytes(4096);
    QCOMPARE(choose->grainBytes(), qint64(4096));
    // On 4 KiB, partition 2 is already where it should be: nothing to choose.
    QVERIFY(!choose->isPartitionSelectable(2));
    QCOMPARE(choose->checkedPartitions(), QList<int>{1});
    screenshot(wizard, QStringLiteral("realign-2-choose-4k"));
    RealignPlanPage *plan = nextToPlan(wizard);
    QVERIFY(plan);
    QCOMPARE(plan->moveTable()->topLevelItemCount(), 1);
    QTreeWidgetItem *row = plan->moveTable()->topLevelItem(0);
    QCOMPARE(row->text(1).toLongLong(), disk.p1Start);
    QCOMPARE(row->text(3).toLongLong(), nextBoundary(disk.p1Start, kFourKSectors));
    QCOMPARE(row->text(4).toLongLong(),
             nextBoundary(disk.p1Start, kFourKSectors) + disk.p1Size - 1);
    screenshot(wizard, QStringLiteral("realign-3-plan-4k"));
    // Back, choose partition 2 too under 1 MiB: both in the plan, partition 2 first or not, each
    // to its own next MiB boundary.
    wizard->back();
    choose->setGrainBytes(1 << 20);
    QVERIFY(choose->isPartitionSelectable(2));
    choose->setPartitionChecked(2, true);
    QVERIFY(nextToPlan(wizard));
    QCOMPARE(plan->moveTable()->topLevelItemCount(), 2);
    const QMap<int, qint64> newStarts = plannedStarts(plan->moveTable());
    QCOMPARE(newStarts.value(1), nextBoundary(disk.p1Start, kGrainSectors));
    QCOMPARE(newStarts.value(2), nextBoundary(disk.p2Start, kGrainSectors));
    // Nothing was written so far.
    QCOMPARE(SfdiskTable::read(disk.image).find(1)->start, disk.p1Start);

    // Run both: one progress bar each, both full at the end.
    plan->backupConfirmation()->setChecked(true);
    RealignRunPage *run = runPlan(wizard);
    QVERIFY(run);
    QVERIFY2(wizard->result().ok, qPrintable(wizard->result().error + '\n' + run->logText()));
    for (int i = 0; i < 2; ++i) {
        QVERIFY(run->progressBar(i));
        QCOMPARE(run->progressBar(i)->value(), run->progressBar(i)->maximum());
    }
    QVERIFY(!run->progressBar(2));
    screenshot(wizard, QStringLiteral("realign-4-run-two"));
    wizard->next();
    QCOMPARE(wizard->resultPage()->checkLines(),
             QStringList{QStringLiteral("partition 1 (ext4): clean")});
    wizard->accept();
    QVERIFY(w.wizardClosed());
    const SfdiskTable now = SfdiskTable::read(disk.image);
    QCOMPARE(now.find(1)->start, nextBoundary(disk.p1Start, kGrainSectors));
    QCOMPARE(now.find(2)->start, nextBoundary(disk.p2Start, kGrainSectors));
    QCOMPARE(now.find(2)->size, 16384);
    const pwtest::ToolResult fsck = checkExt4(disk.image, now.find(1)->start);
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe() + QString::fromUtf8(fsck.out)));
    QCOMPARE(changedFiles(disk, now.find(1)->start), QStringList());
    // Nothing misaligned or off the grain is left: no banner, nothing to realign.
    QVERIFY(QTest::qWaitFor(
        [&] {
            const auto layout = w.window.currentLayout();
            return layout && layout->partitionByNumber(2) &&
                   layout->partitionByNumber(2)->startSector == now.find(2)->start;
        },
        60000));
    QCOMPARE(w.realign->banner()->mode(), RealignBanner::Mode::Hidden);
    QVERIFY(!w.realign->realignAction()->isEnabled());
}

void RealignWizardTest::cancelThenFinishAtStartUp()
{
    TestDisk disk;
    QString error;
    // Large enough that the finishing run reports progress before its end.
    DiskShape shape;
    shape.bigFileBytes = 200 << 20;
    shape.p1Sectors = 256 << 11; // 256 MiB
    shape.p2Start = 540680;      // 8 × 67585: on 4 KiB, not on 1 MiB, 8 MiB after partition 1
    shape.imageBytes = 320 << 20;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("interrupted"), shape, &disk, &error),
             qPrintable(error));
    const qint64 expectedStart = nextBoundary(disk.p1Start, kGrainSectors);
    const QString journal = WriteJournal::defaultPath(disk.image);
    {
        Window w(m_backups);
        QVERIFY(w.open(disk.image));
        RealignWizard *wizard = w.openWizard();
        QVERIFY(wizard);
        wizard->next();
        RealignPlanPage *plan = nextToPlan(wizard);
        QVERIFY(plan);
        plan->backupConfirmation()->setChecked(true);
        wizard->next();
        RealignRunPage *run = wizard->runPage();
        // Cancel at once: the flag is set before the first chunk is copied.
        run->cancelButton()->click();
        QVERIFY(!run->cancelButton()->isEnabled());
        QVERIFY(waitForRun(run));
        QVERIFY2(!wizard->result().ok, "the move finished before Cancel took effect");
        QVERIFY2(wizard->result().resumable, qPrintable(wizard->result().error));
        QVERIFY(QFile::exists(journal));
        screenshot(wizard, QStringLiteral("realign-7-cancelled-run"));
        wizard->next();
        QVERIFY(wizard->resultPage()->resumeButton()->isVisible());
        QVERIFY(
            wizard->resultPage()->outcomeText().contains(QStringLiteral("partwise-cli resume")));
        screenshot(wizard, QStringLiteral("realign-8-cancelled-result"));
        wizard->accept();
        QVERIFY(w.wizardClosed());
        // This session saw the stop: the banner offers to finish, no second question.
        QVERIFY(QTest::qWaitFor(
            [&] { return w.realign->banner()->mode() == RealignBanner::Mode::Interrupted; },
            60000));
        QVERIFY(!w.realign->resumeOffer());
    }

    // A new session ("start-up"): opening the disk brings the offer. Later first…
    {
        Window w(m_backups);
        w.window.openImage(disk.image);
        QVERIFY(QTest::qWaitFor([&] { return w.realign->resumeOffer() != nullptr; }, 60000));
        QMessageBox *offer = w.realign->resumeOffer();
        QVERIFY(offer->text().contains(journal));
        screenshot(offer, QStringLiteral("realign-9-resume-offer"));
        offer->findChild<QPushButton *>(QStringLiteral("laterButton"))->click();
        QVERIFY(QTest::qWaitFor([&] { return !w.realign->resumeOffer(); }, 5000));
        QVERIFY(!w.realign->wizard());
        QCOMPARE(w.realign->banner()->mode(), RealignBanner::Mode::Interrupted);
        screenshot(&w.window, QStringLiteral("realign-10-interrupted-banner"));
    }
    // …then Finish Now in the next one, in the same progress UI.
    {
        Window w(m_backups);
        w.window.openImage(disk.image);
        QVERIFY(QTest::qWaitFor([&] { return w.realign->resumeOffer() != nullptr; }, 60000));
        w.realign->resumeOffer()
            ->findChild<QPushButton *>(QStringLiteral("finishNowButton"))
            ->click();
        QVERIFY(QTest::qWaitFor([&] { return w.realign->wizard() != nullptr; }, 5000));
        RealignWizard *wizard = w.realign->wizard();
        QVERIFY(wizard->isResume());
        QCOMPARE(wizard->currentId(), int(RealignWizard::RunPageId));
        RealignRunPage *run = wizard->runPage();
        bool sawProgress = false;
        QObject::connect(
            wizard->backend(), &RealignBackend::progress, wizard, [&](const RealignProgress &p) {
                if (sawProgress || p.bytesDone == 0 || p.bytesDone >= p.bytesTotal)
                    return;
                sawProgress = true;
                QCOMPARE(run->progressBar(0)->value(), int(1000 * p.bytesDone / p.bytesTotal));
                wizard->grab().save(pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") +
                                    QStringLiteral("/screenshots/realign-11-resumed-run-"
                                                   "progress.png"));
            });
        QVERIFY(waitForRun(run));
        QVERIFY2(wizard->result().ok, qPrintable(wizard->result().error + '\n' + run->logText()));
        QCOMPARE(run->progressBar(0)->value(), run->progressBar(0)->maximum());
        if (!sawProgress)
            qWarning("the move was too quick for a progress report before its end");
        screenshot(wizard, QStringLiteral("realign-11-resumed-run"));
        wizard->next();
        QVERIFY(wizard->resultPage()->checkLines().contains(
            QStringLiteral("partition 1 (ext4): clean")));
        screenshot(wizard, QStringLiteral("realign-12-resumed-result"));
        wizard->accept();
        QVERIFY(w.wizardClosed());
    }
    QVERIFY(!QFile::exists(journal));
    const SfdiskTable now = SfdiskTable::read(disk.image);
    QCOMPARE(now.find(1)->start, expectedStart);
    QCOMPARE(now.find(1)->start % kGrainSectors, 0);
    const pwtest::ToolResult fsck = checkExt4(disk.image, now.find(1)->start);
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe() + QString::fromUtf8(fsck.out)));
    QCOMPARE(changedFiles(disk, now.find(1)->start), QStringList());
}

// As in a live session: the journal folder is a tmpfs. The plan page says what a power cut
// would cost and how to avoid it; with the journal on a disk it says nothing.
void RealignWizardTest::selectionAndPendingEdits()
{
    TestDisk disk;
    QString error;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("selected"), DiskShape{1 << 20}, &disk, &error),
             qPrintable(error));
    Window w(m_backups);
    QVERIFY(w.open(disk.image));
    const int row = rowOfPartition(*w.window.partitionModel(), 2);
    QVERIFY(row >= 0);
    w.window.regionSelection()->setCurrentIndex(w.window.partitionModel()->index(row, 0),
                                                QItemSelectionModel::ClearAndSelect |
                                                    QItemSelectionModel::Rows);
    RealignWizard *wizard = w.openWizard();
    QVERIFY(wizard);
    wizard->next();
    QCOMPARE(wizard->choosePage()->checkedPartitions(), (QList<int>{1, 2}));
    wizard->reject();
    QVERIFY(w.wizardClosed());

    // The banner's button chooses the misaligned partitions only.
    w.realign->banner()->button()->click();
    wizard = w.realign->wizard();
    QVERIFY(wizard);
    wizard->next();
    QCOMPARE(wizard->choosePage()->checkedPartitions(), QList<int>{1});
    wizard->reject();
    QVERIFY(w.wizardClosed());

    EditingController *editing = w.window.editing();
    QVERIFY(editing);
    Operation label;
    label.type = Operation::Type::SetLabel;
    label.number = 1;
    label.label = QStringLiteral("renamed");
    QString queueError;
    QVERIFY2(editing->queue(label, &queueError), qPrintable(queueError));
    QVERIFY(editing->pending() && !editing->pending()->isEmpty());
    w.realign->realignAction()->trigger();
    QVERIFY(!w.realign->wizard());
    auto *notice = w.window.findChild<QMessageBox *>(QStringLiteral("realignPendingNotice"));
    QVERIFY(notice);
    QVERIFY(notice->text().contains(QStringLiteral("pending operations")));
    notice->accept();
}

QTEST_MAIN(RealignWizardTest)
#include "tst_realignwizard.moc"
