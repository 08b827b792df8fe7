// Unmount and carry on, in the window run as root (offscreen): a loop disk whose misaligned
// ext4 the test mounted. Partition → Unmount with a process of the test holding a file open is
// refused, the process named (pid and name) and the filesystem still mounted; without it, the
// partition is unmounted from the menu. Then the realignment wizard's plan, stopped by the mount,
// offers "Unmount and Continue": the plan is made again, the run realigns the partition, and the
// offer to mount it back puts it where it was, every file intact. Checked with findmnt, sfdisk
// and the files' SHA-256; screenshots go to <build>/screenshots/mount-*.png.
#include "filetree.h"
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

QTEST_MAIN(MountActionsTest)
#include "tst_mountactions.moc"
