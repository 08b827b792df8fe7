// The README's first command as a new user would try it: the demo disk, opened in the window
// run as a user the test creates, realigned through the wizard, on a desktop where /dev/fuse is
// open to users (as Debian's udev leaves it). What the plan page showed is what ran (sfdisk
// after), every filesystem that moved was checked by its own tool first (the result page),
// every file of every partition and each filesystem's own check are as before (read as root),
// and the sparse image grew by no more than the data the plan moved.
// Then, with /dev/fuse closed to users as these containers leave it: Resize/Move of an ext4 on
// the demo disk, asked of the user's own helper, offers no shrink (nor grow) and says why, its
// Add to Queue cannot queue one, and a move is still queued and applied (sfdisk, e2fsck after).
#include "adminhelpertest.h"
#include "buildsetting.h"
#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "editing/resizepartitiondialog.h"
#include "guitestsupport.h"
#include "helper/remotemachines.h"
#include "partitionmodel.h"
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "window/mainwindow.h"

#include "clirun.h"
#include "fuseaccess.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScopeGuard>
#include <QSpinBox>
#include <QTest>

#include <optional>

using namespace partwise;
using namespace guitest;
using namespace pwtest;
using namespace adminhelpertest;

void TestAdminHelper::demoDiskThroughWizardAsUser()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const FuseOpenToUsers desktop;
    QVERIFY2(desktop.ok(), qPrintable(desktop.error()));
    const QString home = m_dir.filePath(QStringLiteral("demo-home"));
    QVERIFY(QDir().mkpath(home));
    QVERIFY(::chown(QFile::encodeName(home).constData(), m_user.uid(), m_user.gid()) == 0);
    const QString image = QDir(home).filePath(QStringLiteral("demo.img"));
    const ToolResult made =
        runTool(QStringLiteral("setpriv"),
                m_user.asUserArgs({pwtest::buildSetting("PARTWISE_CLI"), QStringLiteral("practice"),
                                   QStringLiteral("--size"), QStringLiteral("256M"),
                                   QStringLiteral("demo"), image}));
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const SfdiskTable before = SfdiskTable::read(image);
    QVERIFY2(before.ok, qPrintable(before.error));
    QStringList problems;
    const QMap<int, PartitionContents> contents = partitionContents(image, 512, before, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    const qint64 allocatedBefore = allocatedBytes(image);
    qputenv("XDG_DATA_HOME", QFile::encodeName(QDir(home).filePath(QStringLiteral(".data"))));

    QList<PartitionMove> shown;
    qint64 shownBytes = 0;
    QStringList checks;
    {
        QVERIFY(becomeUser(m_user.uid(), m_user.gid()));
        auto root = qScopeGuard(becomeRootAgain);
        MainWindow window;
        RealignController *realign = installRealign(&window, window.editing());
        RemoteMachines *machines = installRemoteMachines(&window);
        realign->setHelperRealign(machines->realignThroughHelpers());
        window.openImage(image);
        const QString key = DiskListModel::machineKey(machines->imagesMachine(), image);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.diskList()->rowOf(key) >= 0 &&
                window.diskList()->entry(window.diskList()->rowOf(key)).state ==
                    DiskEntry::State::Ready,
            60000);
        QTRY_VERIFY(realign->realignAction()->isEnabled());
        realign->realignAction()->trigger();
        RealignWizard *wizard = realign->wizard();
        QVERIFY(wizard);
        wizard->next();
        wizard->next();
        RealignPlanPage *plan = wizard->planPage();
        QVERIFY(QTest::qWaitFor([&] { return plan->isReady(); }, 60000));
        QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
        shown = plan->prepared().plan.moves;
        shownBytes = plan->prepared().plan.totalBytes();
        QVERIFY(!shown.isEmpty());
        plan->backupConfirmation()->setChecked(true);
        wizard->next();
        QVERIFY(QTest::qWaitFor([&] { return wizard->runPage()->isFinished(); }, 300000));
        QVERIFY2(wizard->result().ok,
                 qPrintable(wizard->result().error + '\n' + wizard->runPage()->logText()));
        wizard->next();
        checks = wizard->resultPage()->checkLines();
        wizard->accept();
    }

    // The plan shown is the plan that ran: each move's last place is where sfdisk finds it.
    QMap<int, PartitionMove> last;
    for (const PartitionMove &m : shown)
        last.insert(m.number, m);
    const SfdiskTable after = SfdiskTable::read(image);
    QVERIFY2(after.ok, qPrintable(after.error));
    for (const SfdiskPartition &p : before.partitions) {
        const SfdiskPartition *now = after.find(p.number);
        QVERIFY(now);
        const qint64 start = last.contains(p.number) ? last[p.number].newStart : p.start;
        const qint64 end = last.contains(p.number) ? last[p.number].newEnd : p.end();
        QVERIFY2(now->start == start && now->end() == end,
                 qPrintable(QStringLiteral("partition %1 at %2–%3, the plan page said %4–%5")
                                .arg(p.number)
                                .arg(now->start)
                                .arg(now->end())
                                .arg(start)
                                .arg(end)));
        const QString fs = contents.value(p.number).fs;
        if (last.contains(p.number) && !fs.isEmpty() && fs != QLatin1String("swap"))
            QVERIFY2(
                checks.contains(QStringLiteral("partition %1 (%2): clean").arg(p.number).arg(fs)),
                qPrintable(checks.join(QLatin1Char('\n'))));
    }
    const QMap<int, PartitionContents> now = partitionContents(image, 512, after, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    const QStringList differ = contentsDiffer(contents, now);
    QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
    QVERIFY2(allocatedBytes(image) <= allocatedBefore + shownBytes + (4 << 20),
             qPrintable(QStringLiteral("%1 -> %2 bytes on disk, %3 moved")
                            .arg(allocatedBefore)
                            .arg(allocatedBytes(image))
                            .arg(shownBytes)));
}

void TestAdminHelper::resizeOffersOnlyMovingWithoutFuse()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const FuseClosedToUsers closed;
    QVERIFY2(closed.ok(), qPrintable(closed.error()));
    const QString home = m_dir.filePath(QStringLiteral("resize-home"));
    QVERIFY(QDir().mkpath(home));
    QVERIFY(::chown(QFile::encodeName(home).constData(), m_user.uid(), m_user.gid()) == 0);
    const QString image = QDir(home).filePath(QStringLiteral("demo.img"));
    const ToolResult made =
        runTool(QStringLiteral("setpriv"),
                m_user.asUserArgs({pwtest::buildSetting("PARTWISE_CLI"), QStringLiteral("practice"),
                                   QStringLiteral("--size"), QStringLiteral("256M"),
                                   QStringLiteral("demo"), image}));
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const SfdiskTable before = SfdiskTable::read(image);
    QVERIFY2(before.ok && before.find(6), qPrintable(before.error));
    // Resize/Move shows the size to the nearest MiB, as the map does (63 sectors short of 100).
    const int sizeMiB = int(qRound64(double(before.find(6)->size * 512) / (1 << 20)));
    qputenv("XDG_DATA_HOME", QFile::encodeName(QDir(home).filePath(QStringLiteral(".data"))));

    QString reason, limitShown, log;
    QPixmap shot;
    bool measuredByFs = false;
    bool measured = false, shrinkHeld = false, shrinkQueueable = true, moveQueueable = false;
    {
        QVERIFY(becomeUser(m_user.uid(), m_user.gid()));
        auto root = qScopeGuard(becomeRootAgain);
        MainWindow window;
        RemoteMachines *machines = installRemoteMachines(&window);
        window.openImage(image);
        const QString key = DiskListModel::machineKey(machines->imagesMachine(), image);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.diskList()->rowOf(key) >= 0 &&
                window.diskList()->entry(window.diskList()->rowOf(key)).state ==
                    DiskEntry::State::Ready,
            60000);
        QTRY_COMPARE(window.currentPath(), key);
        // Partition 6, the ext4 "photos", with room before it to move into.
        const int row = rowOfPartition(*window.partitionModel(), 6);
        window.regionSelection()->setCurrentIndex(window.partitionModel()->index(row, 0),
                                                  QItemSelectionModel::ClearAndSelect |
                                                      QItemSelectionModel::Rows);
        QAction *resize = window.editing()->action(EditingController::Action::Resize);
        QTRY_VERIFY2(resize->isEnabled(), qPrintable(resize->toolTip()));
        {
            ModalAnswers answers([&](QWidget *modal) {
                auto *d = qobject_cast<ResizePartitionDialog *>(modal);
                if (!d || !d->isMinimumKnown())
                    return; // the helper has not answered yet
                measured = true;
                measuredByFs = d->minimumFromFilesystem();
                reason = d->cannotShrinkReason();
                auto *limit = d->findChild<QLabel *>(QStringLiteral("resizeLimit"));
                limitShown = limit && limit->isVisibleTo(d) ? limit->text() : QString();
                auto *size = d->findChild<QSpinBox *>(QStringLiteral("size"));
                QPushButton *ok = d->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
                // Asking for 16 MiB less leaves the size as it is: nothing to queue.
                d->setSizeMiB(sizeMiB - 16);
                QCoreApplication::processEvents();
                shrinkHeld = size->value() == sizeMiB && size->maximum() == sizeMiB &&
                             d->operation().sizeBytes == before.find(6)->size * 512;
                shrinkQueueable = ok->isEnabled();
                shot = d->grab(); // saved as root: the build tree is not the user's
                // Moving to the start of the free space before it is offered.
                d->setFreeBeforeMiB(0);
                QCoreApplication::processEvents();
                moveQueueable = ok->isEnabled();
                if (moveQueueable)
                    ok->click();
                else
                    d->reject();
            });
            resize->trigger();
        }
        QVERIFY(measured);
        QVERIFY2(moveQueueable, "the move was not offered");
        QString title;
        QVERIFY2(applyPendingAndClose(window.editing(), &title, &log), qPrintable(log));
    }

    shot.save((pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") +
               QStringLiteral("/screenshots/resize-move-without-fuse.png")));
    // The reason, as the helper's session gave it: no loop device, no FUSE for this user.
    QVERIFY2(reason.contains(QLatin1String("loop device")) &&
                 reason.contains(QLatin1String("FUSE")),
             qPrintable(reason + QStringLiteral(" / measured by the filesystem: %1, shown: %2")
                                     .arg(measuredByFs)
                                     .arg(limitShown)));
    QVERIFY2(limitShown.contains(reason), qPrintable(limitShown));
    QVERIFY(shrinkHeld);
    QVERIFY(!shrinkQueueable);
    // The move ran: partition 6 starts on the grain with at least its size, and its ext4 is
    // clean with the size it had.
    const SfdiskTable after = SfdiskTable::read(image);
    QVERIFY2(after.ok && after.find(6), qPrintable(after.error));
    QVERIFY2(after.find(6)->start < before.find(6)->start && after.find(6)->start % 2048 == 0,
             qPrintable(log));
    QVERIFY(after.find(6)->size >= before.find(6)->size);
    const ToolResult fsck =
        runTool(QStringLiteral("e2fsck"),
                {QStringLiteral("-fn"),
                 QStringLiteral("%1?offset=%2").arg(image).arg(after.find(6)->start * 512)});
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
}
