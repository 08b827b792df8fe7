// Unmount and carry on, in the window run as root (offscreen): a loop disk whose misaligned
// ext4 the test mounted. Partition → Unmount with a process of the test holding a file open is
// refused, the process named (pid and name) and the filesystem still mounted; without it, the
// partition is unmounted from the menu. Then the realignment wizard's plan, stopped by the mount,
// offers "Unmount and Continue": the plan is made again, the run realigns the partition, and the
// offer to mount it back puts it where it was, every file intact. Apply, refused by the mount of
// a partition it resizes, offers the same: unmounted, applied, mounted back. Checked with findmnt,
// sfdisk, df and the files' SHA-256; screenshots go to <build>/screenshots/mount-*.png.
#include "editing/applydialog.h"
#include "editing/editingcontroller.h"
#include "filetree.h"
#include "infopanel.h"
#include "loopdevice.h"
#include "mount/mountactions.h"
#include "mount/partitionmounter.h"
#include "partitionmodel.h"
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "realign/realignwizard.h"
#include "realignguisupport.h"
#include "sfdisktable.h"
#include "toolrun.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QIcon>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace pwtest;

namespace {

QStringList targetsOf(const QString &device)
{
    const ToolResult r = runTool(QStringLiteral("findmnt"),
                                 {QStringLiteral("-n"), QStringLiteral("-o"),
                                  QStringLiteral("TARGET"), QStringLiteral("--source"), device});
    return QString::fromLocal8Bit(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// Answers the message box named `name` whenever one is up: records its text, presses `button`.
struct BoxAnswer
{
    QTimer timer;
    QString text;
    BoxAnswer(const QString &name, QMessageBox::StandardButton button)
    {
        QObject::connect(&timer, &QTimer::timeout, [this, name, button] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box->objectName() != name)
                return;
            text = box->text() + QLatin1Char('\n') + box->detailedText();
            screenshot(box, QStringLiteral("mount-") + name);
            box->button(button)->click();
        });
        timer.start(50);
    }
};

} // namespace

class MountActionsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void unmountFromTheMenuAndCarryOn();
    void applyUnmountsAndContinues();

private:
    QTemporaryDir m_dir;
    QString m_backups;
};

void MountActionsTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useFreshSettings(QStringLiteral("partwise-mount-actions-tests"));
    m_backups = m_dir.filePath(QStringLiteral("backups"));
}

void MountActionsTest::unmountFromTheMenuAndCarryOn()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    TestDisk disk;
    QString error;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("mounted"), DiskShape{1 << 20}, &disk, &error),
             qPrintable(error));
    LoopDevice loop(disk.image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(loop.addPartitions());
    const QString node = loop.partitionNode(1);
    const QString folder = m_dir.filePath(QStringLiteral("mnt"));
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(runTool(QStringLiteral("mount"), {node, folder}).ok());
    struct Unmount
    {
        QString folder;
        ~Unmount() { runTool(QStringLiteral("umount"), {folder}); }
    } unmountAtEnd{folder};
    const QMap<QString, QByteArray> files = treeSha256(disk.sourceDir);

    Window w(m_backups);
    MountActions *actions = MountActions::install(&w.window, w.realign, new PartitionMounter({}));
    QVERIFY(w.open(loop.path()));
    // Partition 1 selected, as a click in the list does (again after each re-read).
    const auto select = [&w] {
        const int row = rowOfPartition(*w.window.partitionModel(), 1);
        w.window.regionSelection()->setCurrentIndex(w.window.partitionModel()->index(row, 0),
                                                    QItemSelectionModel::ClearAndSelect |
                                                        QItemSelectionModel::Rows);
        return row >= 0;
    };
    QVERIFY(select());
    // Marked as in use: a lock in the list, the mount point in the tooltip and the info panel.
    const int row = rowOfPartition(*w.window.partitionModel(), 1);
    const QModelIndex first = w.window.partitionModel()->index(row, 0);
    QVERIFY(!first.data(Qt::DecorationRole).value<QIcon>().isNull());
    QVERIFY2(first.data(Qt::ToolTipRole).toString().contains(folder),
             qPrintable(first.data(Qt::ToolTipRole).toString()));
    QVERIFY2(w.window.infoPanel()->value(QStringLiteral("inUse")).contains(folder),
             qPrintable(w.window.infoPanel()->value(QStringLiteral("inUse"))));
    QVERIFY(actions->unmountAction()->isEnabled());
    QVERIFY(!actions->swapOffAction()->isEnabled());
    actions->menu()->popup(w.window.mapToGlobal(QPoint(60, 30)));
    QTest::qWait(100);
    screenshot(actions->menu(), QStringLiteral("mount-partition-menu"));
    actions->menu()->close();

    // A process of the test holds a file open there: refused, named, still mounted.
    const QString held = folder + QStringLiteral("/held.txt");
    QVERIFY(runTool(QStringLiteral("sh"),
                    {QStringLiteral("-c"), QStringLiteral("echo held > '%1'").arg(held)})
                .ok());
    QProcess holder;
    holder.setStandardInputFile(held);
    holder.start(QStringLiteral("sleep"), {QStringLiteral("60")});
    QVERIFY(holder.waitForStarted());
    {
        BoxAnswer refusal(QStringLiteral("mountRefusal"), QMessageBox::Cancel);
        QSignalSpy finished(actions, &MountActions::finished);
        actions->unmountAction()->trigger();
        QVERIFY(QTest::qWaitFor([&] { return !refusal.text.isEmpty(); }, 20000));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toBool(), false);
        QVERIFY2(refusal.text.contains(QStringLiteral("sleep (pid %1)").arg(holder.processId())),
                 qPrintable(refusal.text));
    }
    QCOMPARE(targetsOf(node), QStringList{folder});
    holder.kill();
    holder.waitForFinished();
    QVERIFY(QFile::remove(held));

    // Nothing holds it now: unmounted from the menu, and the disk read again.
    QVERIFY(QTest::qWaitFor([&] { return w.window.currentLayout().has_value(); }, 20000));
    QTest::qWait(300);
    QVERIFY(select());
    QVERIFY(actions->unmountAction()->isEnabled());
    QSignalSpy finished(actions, &MountActions::finished);
    actions->unmountAction()->trigger();
    QVERIFY(finished.wait(20000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QCOMPARE(targetsOf(node), QStringList());
    // Read again after the action: the lock is gone.
    QVERIFY(QTest::qWaitFor(
        [&] {
            const int r = rowOfPartition(*w.window.partitionModel(), 1);
            return r >= 0 && w.window.partitionModel()
                                 ->index(r, 0)
                                 .data(Qt::DecorationRole)
                                 .value<QIcon>()
                                 .isNull();
        },
        20000));
    QTest::qWait(300);
    screenshot(&w.window, QStringLiteral("mount-unmounted"));

    // Mounted again behind the window's back; the wizard's plan stops on it and offers to
    // unmount and continue.
    QVERIFY(runTool(QStringLiteral("mount"), {node, folder}).ok());
    RealignWizard *wizard = w.openWizard();
    QVERIFY(wizard);
    wizard->next();
    RealignPlanPage *plan = nextToPlan(wizard);
    QVERIFY(plan);
    QVERIFY(!plan->busy().isEmpty());
    QVERIFY(plan->unmountButton()->isVisible());
    screenshot(wizard, QStringLiteral("mount-plan-busy"));
    plan->unmountButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return plan->isReady() && plan->busy().isEmpty(); }, 60000));
    QCOMPARE(targetsOf(node), QStringList());
    QVERIFY(!plan->unmountButton()->isVisible());
    plan->backupConfirmation()->setChecked(true);
    screenshot(wizard, QStringLiteral("mount-plan-unmounted"));

    BoxAnswer mountBack(QStringLiteral("mountBackOffer"), QMessageBox::Yes);
    BoxAnswer mountBackFailed(QStringLiteral("mountBackFailed"), QMessageBox::Ok);
    QVERIFY(runPlan(wizard));
    QVERIFY2(QTest::qWaitFor([&] { return targetsOf(node) == QStringList{folder}; }, 30000),
             qPrintable(targetsOf(node).join(QLatin1Char(' ')) + mountBackFailed.text));
    QVERIFY(!mountBack.text.isEmpty());
    const SfdiskTable table = SfdiskTable::read(loop.path());
    QVERIFY(table.ok && table.find(1));
    QCOMPARE(table.find(1)->start % 2048, 0);
    QMap<QString, QByteArray> now = treeSha256(folder);
    QCOMPARE(compareTrees(files, now), QStringList());
    screenshot(wizard, QStringLiteral("mount-realigned"));
    wizard->reject();
}

// Apply refused by a mounted ext4 it would resize offers "Unmount and Continue": the partition is
// unmounted, the queue applied (sfdisk sees the new size, e2fsck finds the filesystem clean), and
// the offer to mount it back puts it where it was, every file intact.
void MountActionsTest::applyUnmountsAndContinues()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    TestDisk disk;
    QString error;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("apply"), DiskShape{1 << 20}, &disk, &error),
             qPrintable(error));
    LoopDevice loop(disk.image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(loop.addPartitions());
    const QString node = loop.partitionNode(1);
    const QString folder = m_dir.filePath(QStringLiteral("applymnt"));
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(runTool(QStringLiteral("mount"), {node, folder}).ok());
    struct Unmount
    {
        QString folder;
        ~Unmount() { runTool(QStringLiteral("umount"), {folder}); }
    } unmountAtEnd{folder};
    const QMap<QString, QByteArray> files = treeSha256(disk.sourceDir);
    const qint64 sizeBefore = SfdiskTable::read(loop.path()).find(1)->size;
    // What df says the mounted filesystem holds (not Partwise).
    const auto dfBytes = [&folder] {
        const ToolResult df = runTool(
            QStringLiteral("df"), {QStringLiteral("-B1"), QStringLiteral("--output=size"), folder});
        return QString::fromUtf8(df.out).split(QLatin1Char('\n')).value(1).trimmed().toLongLong();
    };
    const qint64 fsBefore = dfBytes();

    Window w(m_backups);
    MountActions::install(&w.window, w.realign, new PartitionMounter({}));
    QVERIFY(w.open(loop.path()));
    partwise::Operation grow;
    grow.type = partwise::Operation::Type::Resize;
    grow.number = 1;
    grow.sizeBytes = qint64(34) << 20;
    QVERIFY2(w.window.editing()->queue(grow, &error), qPrintable(error));

    QList<partwise::ApplyResult> results;
    QStringList boxes;
    QTimer answers;
    connect(&answers, &QTimer::timeout, [&] {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            boxes << box->objectName() + QLatin1Char(':') + box->text();
            screenshot(box, QStringLiteral("mount-apply-") + box->objectName());
            if (auto *unmount = box->findChild<QPushButton *>(QStringLiteral("applyUnmount")))
                unmount->click();
            else if (box->button(QMessageBox::Yes))
                box->button(QMessageBox::Yes)->click(); // Apply's question, the mount back
            else
                box->button(QMessageBox::Ok)->click(); // a failure: recorded in `boxes`
        } else if (auto *d = qobject_cast<ApplyDialog *>(modal); d && d->isFinished()) {
            results << d->result();
            d->accept();
        }
    });
    answers.start(30);
    w.window.editing()->action(EditingController::Action::Apply)->trigger();
    QVERIFY2(
        QTest::qWaitFor(
            [&] { return results.size() == 2 && targetsOf(node) == QStringList{folder}; }, 120000),
        qPrintable(boxes.join(QLatin1Char('\n')) + targetsOf(node).join(QLatin1Char(' '))));
    answers.stop();
    QVERIFY(!results[0].ok && results[0].inUse);
    QVERIFY2(results[1].ok, qPrintable(results[1].error));
    QVERIFY2(boxes.filter(QStringLiteral("applyInUse:")).size() == 1 &&
                 boxes.filter(QStringLiteral("mountBackOffer:")).size() == 1,
             qPrintable(boxes.join(QLatin1Char('\n'))));
    const SfdiskTable table = SfdiskTable::read(loop.path());
    QVERIFY(table.ok && table.find(1));
    QVERIFY2(table.find(1)->size > sizeBefore, qPrintable(QString::number(table.find(1)->size)));
    QCOMPARE(compareTrees(files, treeSha256(folder)), QStringList());
    // The filesystem grew with its partition.
    QVERIFY2(dfBytes() > fsBefore,
             qPrintable(QStringLiteral("%1 %2").arg(dfBytes()).arg(fsBefore)));
}

QTEST_MAIN(MountActionsTest)
#include "tst_mountactions.moc"
