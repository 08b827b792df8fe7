// The plan page's ways to make room, driven as a person would: a misaligned ext4 at sector 63
// with an aligned ext4 right behind it and free space at the end can be realigned by shrinking
// it or by shifting its neighbour up. The page offers both, the cheapest checked; picking the
// other plans again and the neighbour moves; after the run only Finish is offered. Every
// expectation on the disk comes from sfdisk, e2fsck and debugfs, or from ARCHITECTURE.md's rule.
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "realign/realignwaychooser.h"
#include "realign/realignwizard.h"
#include "realignguisupport.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace partwise;

using pwtest::SfdiskTable;

namespace {

// p1: ext4 from 63 up to the 10 MiB boundary, where p2 (ext4, 8 MiB, aligned) starts; 46 MiB
// free after p2.
constexpr qint64 kP1Sectors = 20480 - 63;
constexpr qint64 kP2Start = 20480;
constexpr qint64 kP2Sectors = 16384;

// buildDisk's ext4 at 63 up to kP2Start; after it the sfdisk lines `rest`, or (empty) an 8 MiB
// partition 2 at kP2Start.
bool buildTightDisk(const QString &folder, const QString &name, const QString &rest, TestDisk *disk,
                    QString *error)
{
    DiskShape shape;
    shape.bigFileBytes = 1 << 20;
    shape.p1Sectors = kP1Sectors;
    shape.p2Start = kP2Start;
    shape.rest = rest;
    return buildDisk(folder, name, shape, disk, error);
}

bool offered(const QAbstractButton *button)
{
    return button && button->isVisible() && button->isEnabled();
}

} // namespace

class RealignWaysTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void shrinkOrShiftTheNeighbour();
    void extendedNeighbourMovesInTheTable();
    void refusedShrinkReturnsToThePlan();

private:
    QTemporaryDir m_dir;
    QString m_backups;
};

void RealignWaysTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useFreshSettings(QStringLiteral("partwise-realign-ways-tests"));
    m_backups = m_dir.filePath(QStringLiteral("backups"));
    const QString missing = missingTool({QStringLiteral("sfdisk"), QStringLiteral("mkfs.ext4"),
                                         QStringLiteral("e2fsck"), QStringLiteral("debugfs"),
                                         QStringLiteral("resize2fs")});
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
}

void RealignWaysTest::shrinkOrShiftTheNeighbour()
{
    TestDisk disk;
    QString error;
    QVERIFY2(buildTightDisk(m_dir.path(), QStringLiteral("ways"), QString(), &disk, &error),
             qPrintable(error));
    QVERIFY2(formatExt4(disk.image, kP2Start, kP2Sectors, QStringLiteral("pwneighbour"), &error),
             qPrintable(error));
    const SfdiskTable before = SfdiskTable::read(disk.image);
    QVERIFY(before.ok && before.find(1) && before.find(2));
    QCOMPARE(before.find(1)->end() + 1, before.find(2)->start); // no room right after p1
    QCOMPARE(before.find(2)->start % kGrainSectors, 0);
    const qint64 p1Target = nextBoundary(disk.p1Start, kGrainSectors);

    Window w(m_backups);
    RealignWizard *wizard = nullptr;
    RealignPlanPage *plan = nullptr;
    w.openPlanOfPartition1(disk.image, &wizard, &plan);
    if (QTest::currentTestFailed())
        return;

    // Both ways are offered for partition 1, the cheapest first and checked: shrinking copies
    // partition 1 only, shifting copies partition 2 as well.
    RealignWayChooser *ways = plan->wayChooser();
    QVERIFY(ways->isVisible());
    QCOMPARE(ways->partitions(), QList<int>{1});
    QCOMPARE(ways->ways(1), (QList<RealignWay>{RealignWay::Shrink, RealignWay::ShiftFollowing}));
    QCOMPARE(ways->checkedIndex(1), 0);
    QVERIFY(ways->button(1, RealignWay::Shrink)->isChecked());
    const QString shrinkCost = ways->costText(1, RealignWay::Shrink);
    QVERIFY2(shrinkCost.contains(QStringLiteral("gives up")) &&
                 shrinkCost.contains(QStringLiteral("no other partition moves")),
             qPrintable(shrinkCost));
    const QString shiftCost = ways->costText(1, RealignWay::ShiftFollowing);
    QVERIFY2(shiftCost.contains(QStringLiteral("partition 2 moves too")), qPrintable(shiftCost));
    // The shrink plan: partition 1 alone, on the grain, ending before partition 2.
    QMap<int, qint64> starts = plannedStarts(plan->moveTable());
    QCOMPARE(starts.keys(), QList<int>{1});
    QCOMPARE(starts.value(1), p1Target);
    QVERIFY(plan->moveTable()->topLevelItem(0)->text(4).toLongLong() < kP2Start);
    screenshot(wizard, QStringLiteral("realign-ways-1-shrink"));

    // Pick the other way: the page plans again, and now partition 2 moves up too.
    ways->button(1, RealignWay::ShiftFollowing)->click();
    QVERIFY(!plan->isReady());
    QVERIFY(!wizard->button(QWizard::CommitButton)->isEnabled());
    QVERIFY(waitForPlan(plan));
    QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
    QCOMPARE(plan->pickedWays().value(1), RealignWay::ShiftFollowing);
    QVERIFY(ways->button(1, RealignWay::ShiftFollowing)->isChecked());
    QVERIFY(ways->isEnabled());
    starts = plannedStarts(plan->moveTable());
    QCOMPARE(starts.keys(), (QList<int>{1, 2}));
    QCOMPARE(starts.value(1), p1Target);
    const qint64 p1End = p1Target + disk.p1Size - 1; // whole: nothing shrinks
    const qint64 p2Target = nextBoundary(p1End + 1, kGrainSectors);
    QCOMPARE(starts.value(2), p2Target);
    screenshot(wizard, QStringLiteral("realign-ways-2-shift"));
    // Clicking the way already taken plans nothing again.
    ways->button(1, RealignWay::ShiftFollowing)->click();
    QVERIFY(plan->isReady());

    // Run it. Once the work has ended nothing can be cancelled: Cancel is off, and Back does
    // not lead to the plan again.
    plan->backupConfirmation()->setChecked(true);
    QVERIFY(wizard->button(QWizard::CommitButton)->isEnabled());
    RealignRunPage *run = runPlan(wizard);
    QVERIFY(run);
    QVERIFY2(wizard->result().ok, qPrintable(wizard->result().error + '\n' + run->logText()));
    QVERIFY(!offered(wizard->button(QWizard::CancelButton)));
    QVERIFY(!offered(wizard->button(QWizard::BackButton)));
    QVERIFY(offered(wizard->button(QWizard::CommitButton)) ||
            offered(wizard->button(QWizard::NextButton)));
    screenshot(wizard, QStringLiteral("realign-ways-3-run"));
    wizard->next();
    QCOMPARE(wizard->currentId(), int(RealignWizard::ResultPageId));
    QVERIFY(offered(wizard->button(QWizard::FinishButton)));
    QVERIFY(!offered(wizard->button(QWizard::CancelButton)));
    QVERIFY(!offered(wizard->button(QWizard::BackButton)));
    QVERIFY(!offered(wizard->button(QWizard::NextButton)));
    QVERIFY(!offered(wizard->button(QWizard::CommitButton)));
    screenshot(wizard, QStringLiteral("realign-ways-4-result"));
    wizard->accept();
    QVERIFY(w.wizardClosed());

    // The disk, by independent tools: both on the grain, sizes kept, both filesystems clean.
    const SfdiskTable now = SfdiskTable::read(disk.image);
    QVERIFY2(now.ok, qPrintable(now.error));
    QCOMPARE(now.find(1)->start, p1Target);
    QCOMPARE(now.find(1)->size, disk.p1Size);
    QCOMPARE(now.find(2)->start, p2Target);
    QCOMPARE(now.find(2)->size, kP2Sectors);
    for (int number : {1, 2}) {
        const pwtest::ToolResult fsck = checkExt4(disk.image, now.find(number)->start);
        QVERIFY2(fsck.ok(), qPrintable(fsck.describe() + QString::fromUtf8(fsck.out)));
    }
    QCOMPARE(changedFiles(disk, now.find(1)->start), QStringList());
}

// The neighbour is an extended partition holding one logical ext4: shifting it moves the
// logical partition's data and the container's place in the table, which copies nothing and says
// so instead of "0 B".
void RealignWaysTest::extendedNeighbourMovesInTheTable()
{
    constexpr qint64 kExtSectors = 20480;
    constexpr qint64 kLogicalStart = kP2Start + kGrainSectors; // its EBR a grain before it
    const QString rest = QStringLiteral("start=%1, size=%2, type=5\nstart=%3, size=%4, type=83\n")
                             .arg(kP2Start)
                             .arg(kExtSectors)
                             .arg(kLogicalStart)
                             .arg(kP2Sectors);
    TestDisk disk;
    QString error;
    QVERIFY2(buildTightDisk(m_dir.path(), QStringLiteral("extended"), rest, &disk, &error),
             qPrintable(error));
    QVERIFY2(formatExt4(disk.image, kLogicalStart, kP2Sectors, QStringLiteral("pwlogical"), &error),
             qPrintable(error));
    const SfdiskTable before = SfdiskTable::read(disk.image);
    QVERIFY(before.ok && before.find(2) && before.find(5));
    QCOMPARE(before.find(5)->start, kLogicalStart);

    Window w(m_backups);
    RealignWizard *wizard = nullptr;
    RealignPlanPage *plan = nullptr;
    w.openPlanOfPartition1(disk.image, &wizard, &plan);
    if (QTest::currentTestFailed())
        return;
    RealignWayChooser *ways = plan->wayChooser();
    QVERIFY(ways->ways(1).contains(RealignWay::ShiftFollowing));
    const QString shiftCost = ways->costText(1, RealignWay::ShiftFollowing);
    QVERIFY2(shiftCost.contains(QStringLiteral("partition 5 moves too")) &&
                 shiftCost.contains(QStringLiteral("extended partition 2 is moved in the table")),
             qPrintable(shiftCost));
    if (!ways->button(1, RealignWay::ShiftFollowing)->isChecked()) {
        ways->button(1, RealignWay::ShiftFollowing)->click();
        QVERIFY(waitForPlan(plan));
        QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
    }
    // Every step of partition 2 reads as a table step; the data moves show their bytes.
    QTreeWidget *table = plan->moveTable();
    int containerSteps = 0;
    for (int i = 0; i < table->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *row = table->topLevelItem(i);
        if (row->data(0, Qt::UserRole).toInt() != 2) {
            QVERIFY2(row->text(5).endsWith(QStringLiteral("B")), qPrintable(row->text(5)));
            continue;
        }
        ++containerSteps;
        QCOMPARE(row->text(5), QStringLiteral("table only"));
        QVERIFY2(row->text(6).contains(QStringLiteral("its logical partitions")),
                 qPrintable(row->text(6)));
    }
    QVERIFY(containerSteps >= 1);
    screenshot(wizard, QStringLiteral("realign-ways-5-extended"));

    plan->backupConfirmation()->setChecked(true);
    RealignRunPage *run = runPlan(wizard);
    QVERIFY(run);
    QVERIFY2(wizard->result().ok, qPrintable(wizard->result().error + '\n' + run->logText()));
    QVERIFY(!offered(wizard->button(QWizard::CancelButton)));
    screenshot(wizard, QStringLiteral("realign-ways-6-extended-run"));
    wizard->next();
    wizard->accept();
    QVERIFY(w.wizardClosed());

    // ARCHITECTURE.md: partition 1 to its next MiB, whole; the container pushed to the next MiB
    // after it, the logical partition keeping its place inside it (so its alignment).
    const SfdiskTable now = SfdiskTable::read(disk.image);
    QVERIFY2(now.ok && now.find(1) && now.find(2) && now.find(5), qPrintable(now.error));
    const qint64 p1Target = nextBoundary(disk.p1Start, kGrainSectors);
    QCOMPARE(now.find(1)->start, p1Target);
    QCOMPARE(now.find(1)->size, disk.p1Size);
    const qint64 extTarget = nextBoundary(p1Target + disk.p1Size, kGrainSectors);
    QCOMPARE(now.find(2)->start, extTarget);
    QCOMPARE(now.find(5)->start, extTarget + (kLogicalStart - kP2Start));
    QCOMPARE(now.find(5)->size, kP2Sectors);
    for (int number : {1, 5}) {
        const pwtest::ToolResult fsck = checkExt4(disk.image, now.find(number)->start);
        QVERIFY2(fsck.ok(), qPrintable(fsck.describe() + QString::fromUtf8(fsck.out)));
    }
    QCOMPARE(changedFiles(disk, now.find(1)->start), QStringList());
}

// A full ext4 cannot give up the MiB the shrink needs: resize2fs refuses before anything moves.
// The wizard does not then run a plan nobody saw: it returns to the plan page, says why, and
// offers the next way; that one runs only when the person starts it, and realigns the disk.
void RealignWaysTest::refusedShrinkReturnsToThePlan()
{
    TestDisk disk;
    QString error;
    DiskShape shape;
    shape.bigFileBytes = 8 << 20; // partition 1 is 10 MiB: no MiB left to give up
    shape.p1Sectors = kP1Sectors;
    shape.p2Start = kP2Start;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("full"), shape, &disk, &error),
             qPrintable(error));
    QVERIFY2(formatExt4(disk.image, kP2Start, kP2Sectors, QStringLiteral("pwneighbour"), &error),
             qPrintable(error));
    const SfdiskTable before = SfdiskTable::read(disk.image);
    QVERIFY(before.ok && before.find(1) && before.find(2));

    Window w(m_backups);
    RealignWizard *wizard = nullptr;
    RealignPlanPage *plan = nullptr;
    w.openPlanOfPartition1(disk.image, &wizard, &plan);
    if (QTest::currentTestFailed())
        return;
    RealignWayChooser *ways = plan->wayChooser();
    if (!ways->button(1, RealignWay::Shrink)->isChecked()) { // the shrink is what must fail
        ways->button(1, RealignWay::Shrink)->click();
        QVERIFY(waitForPlan(plan));
    }
    plan->backupConfirmation()->setChecked(true);
    wizard->next();
    QVERIFY(QTest::qWaitFor(
        [&] { return wizard->currentId() == RealignWizard::PlanPageId && plan->isReady(); },
        120000));
    // Back on the plan page: why, and the next plan, which nothing has run yet.
    QVERIFY2(plan->refusalText().contains(QLatin1String("resize2fs")) ||
                 plan->refusalText().contains(QLatin1String("minimum")),
             qPrintable(plan->refusalText()));
    QVERIFY(plan->refusalText().contains(QLatin1String("Nothing was changed.")));
    QCOMPARE(plan->pickedWays().value(1), RealignWay::ShiftFollowing);
    QVERIFY(ways->button(1, RealignWay::ShiftFollowing)->isChecked());
    QCOMPARE(plannedStarts(plan->moveTable()).keys(), (QList<int>{1, 2}));
    QVERIFY(!plan->backupConfirmation()->isChecked()); // a new plan is confirmed anew
    const SfdiskTable unchanged = SfdiskTable::read(disk.image);
    QVERIFY(unchanged.ok);
    QCOMPARE(unchanged.find(1)->start, before.find(1)->start);
    QCOMPARE(unchanged.find(1)->size, before.find(1)->size);
    QCOMPARE(unchanged.find(2)->start, before.find(2)->start);
    QCOMPARE(changedFiles(disk, before.find(1)->start), QStringList());
    screenshot(wizard, QStringLiteral("realign-ways-5-refused"));

    plan->backupConfirmation()->setChecked(true);
    RealignRunPage *run = runPlan(wizard);
    QVERIFY(run);
    QVERIFY2(wizard->result().ok, qPrintable(wizard->result().error + '\n' + run->logText()));
    wizard->next();
    wizard->accept();
    QVERIFY(w.wizardClosed());
    const SfdiskTable now = SfdiskTable::read(disk.image);
    QVERIFY2(now.ok, qPrintable(now.error));
    QCOMPARE(now.find(1)->start, nextBoundary(disk.p1Start, kGrainSectors));
    QCOMPARE(now.find(1)->size, disk.p1Size);
    QCOMPARE(now.find(2)->start % kGrainSectors, 0);
    QCOMPARE(now.find(2)->size, kP2Sectors);
    for (int number : {1, 2}) {
        const pwtest::ToolResult fsck = checkExt4(disk.image, now.find(number)->start);
        QVERIFY2(fsck.ok(), qPrintable(fsck.describe() + QString::fromUtf8(fsck.out)));
    }
    QCOMPARE(changedFiles(disk, now.find(1)->start), QStringList());
}

QTEST_MAIN(RealignWaysTest)
#include "tst_realignways.moc"
