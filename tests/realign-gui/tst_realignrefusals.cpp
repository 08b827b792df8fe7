// The realignment wizard saying no, or warning, as a person meets it: a mounted partition
// named and the run blocked, a journal folder in memory warned about, a disk with no room
// explained, and a damaged journal not offered for finishing. Expectations come from sfdisk
// and the tools, never from core/align.
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

class RealignRefusalsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void journalInMemoryIsWarnedAbout();
    void mountedPartitionIsNamedAndBlocksTheRun();
    void noRoomIsExplained();
    void damagedJournalIsNotOffered();

private:
    QTemporaryDir m_dir;
    QString m_backups;
};

void RealignRefusalsTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useFreshSettings(QStringLiteral("partwise-realign-refusal-tests"));
    m_backups = m_dir.filePath(QStringLiteral("backups"));
    const QString missing = missingTool({QStringLiteral("sfdisk"), QStringLiteral("mkfs.ext4"),
                                         QStringLiteral("e2fsck"), QStringLiteral("debugfs")});
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
}

void RealignRefusalsTest::journalInMemoryIsWarnedAbout()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // mounts a tmpfs
    TestDisk disk;
    QString error;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("inram"), DiskShape{1 << 20}, &disk, &error),
             qPrintable(error));
    const QString ram = m_dir.filePath(QStringLiteral("ram"));
    QVERIFY(QDir().mkpath(ram));
    QVERIFY(runTool(QStringLiteral("mount"),
                    {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("pwtest"), ram})
                .ok());
    const auto planWarning = [&](const QString &journal) {
        Window w(m_backups);
        RealignOptions options = w.realign->defaultOptions();
        options.journalPath = journal;
        w.realign->setDefaultOptions(options);
        if (!w.open(disk.image))
            return QStringLiteral("(not opened)");
        return w.planJournalWarning(QStringLiteral("realign-3-plan-journal-in-memory"));
    };
    const QString inMemory = planWarning(ram + QStringLiteral("/moves/disk.realign"));
    runTool(QStringLiteral("umount"), {QStringLiteral("-l"), ram});
    QVERIFY2(inMemory.contains(QLatin1String("tmpfs")) &&
                 inMemory.contains(QLatin1String("Preferences")),
             qPrintable(inMemory));
    // /var/tmp is on a disk (/tmp may be a tmpfs itself).
    QTemporaryDir onDisk(QStringLiteral("/var/tmp/pw-journal-XXXXXX"));
    QVERIFY(onDisk.isValid());
    QCOMPARE(planWarning(onDisk.filePath(QStringLiteral("disk.realign"))), QString());
}

void RealignRefusalsTest::mountedPartitionIsNamedAndBlocksTheRun()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    TestDisk disk;
    QString error;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("mounted"), DiskShape{1 << 20}, &disk, &error),
             qPrintable(error));
    pwtest::LoopDevice loop(disk.image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(loop.addPartitions());
    const QString mountPoint = m_dir.filePath(QStringLiteral("mnt"));
    QVERIFY(QDir().mkpath(mountPoint));
    const pwtest::ToolResult mount =
        runTool(QStringLiteral("mount"), {loop.partitionNode(1), mountPoint});
    if (!mount.ok())
        QSKIP(qPrintable(QStringLiteral("cannot mount ext4 here: ") + mount.describe()));
    struct Unmount
    {
        QString point;
        bool done = false;
        bool operator()()
        {
            done = done || runTool(QStringLiteral("umount"), {point}).ok();
            return done;
        }
        ~Unmount() { (*this)(); }
    } unmount{mountPoint};

    Window w(m_backups);
    QVERIFY(w.open(disk.image));
    RealignWizard *wizard = w.openWizard();
    QVERIFY(wizard);
    wizard->next();
    RealignPlanPage *plan = nextToPlan(wizard);
    QVERIFY(plan);
    QVERIFY(!plan->busy().isEmpty());
    const QString said = plan->findChild<QLabel *>(QStringLiteral("planBusy"))->text();
    QVERIFY2(said.contains(mountPoint), qPrintable(said));
    plan->backupConfirmation()->setChecked(true);
    QVERIFY(!wizard->button(QWizard::CommitButton)->isEnabled());
    screenshot(wizard, QStringLiteral("realign-3-plan-busy"));

    QVERIFY(unmount());
    plan->findChild<QPushButton *>(QStringLiteral("planRecheck"))->click();
    QVERIFY(waitForPlan(plan));
    QVERIFY(plan->busy().isEmpty());
    QVERIFY(wizard->button(QWizard::CommitButton)->isEnabled());
    wizard->reject();
    QVERIFY(w.wizardClosed());
}

// An exFAT partition at 63 with its neighbour right behind it, and the neighbour reaching the
// end of the disk: nowhere to go, no free space to shift the neighbour into, and exFAT cannot
// be shrunk (it has no resize tool). The plan says so and offers nothing to run.
void RealignRefusalsTest::noRoomIsExplained()
{
    const QString image = m_dir.filePath(QStringLiteral("tight.img"));
    {
        QFile f(image);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(32 << 20));
    }
    const pwtest::ToolResult table =
        runTool(QStringLiteral("sfdisk"), {image},
                "label: dos\nstart=63, size=20417, type=7\nstart=20480, size=45056, type=83\n");
    QVERIFY2(table.ok(), qPrintable(table.describe()));
    QString error;
    if (!placeFilesystem(image, 63, 20417, QStringLiteral("mkfs.exfat"),
                         {QStringLiteral("-L"), QStringLiteral("PWTIGHT")}, &error))
        QSKIP(qPrintable(error));
    const SfdiskTable before = SfdiskTable::read(image);
    QVERIFY(before.ok && before.find(1) && before.find(2));
    QCOMPARE(before.find(1)->end() + 1, before.find(2)->start); // adjacent

    Window w(m_backups);
    RealignWizard *wizard = nullptr;
    RealignPlanPage *plan = nullptr;
    w.openPlanOfPartition1(image, &wizard, &plan);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(plan->moveTable()->topLevelItemCount(), 0);
    const QString stays = plan->findChild<QLabel *>(QStringLiteral("planStays"))->text();
    QVERIFY2(stays.contains(QStringLiteral("Partition 1 stays where it is:")), qPrintable(stays));
    QVERIFY2(stays.contains(QStringLiteral("Partition 2 stays: it already starts on the grain.")),
             qPrintable(stays));
    plan->backupConfirmation()->setChecked(true);
    QVERIFY(!wizard->button(QWizard::CommitButton)->isEnabled());
    screenshot(wizard, QStringLiteral("realign-3-plan-no-room"));
    wizard->reject();
    QVERIFY(w.wizardClosed());
}

// A journal that does not check out is never offered for finishing: the notice says why, and
// the journal stays for the person to read.
void RealignRefusalsTest::damagedJournalIsNotOffered()
{
    const QString image = m_dir.filePath(QStringLiteral("damaged-journal.img"));
    {
        QFile f(image);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(16 << 20));
    }
    const pwtest::ToolResult table =
        runTool(QStringLiteral("sfdisk"), {image}, "label: dos\nstart=63, size=20000, type=83\n");
    QVERIFY2(table.ok(), qPrintable(table.describe()));
    const QString journal = WriteJournal::defaultPath(image);
    QFile damaged(journal);
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write(R"({"checksum": "0000000000000000", "format": 3, "journal": {"moves": []}})");
    damaged.close();

    Window w(m_backups);
    w.window.openImage(image);
    QVERIFY(QTest::qWaitFor([&] { return w.realign->resumeOffer() != nullptr; }, 60000));
    QMessageBox *notice = w.realign->resumeOffer();
    QCOMPARE(notice->objectName(), QStringLiteral("damagedJournalNotice"));
    QVERIFY(!notice->findChild<QPushButton *>(QStringLiteral("finishNowButton")));
    QVERIFY2(notice->informativeText().contains(QStringLiteral("cannot be trusted")),
             qPrintable(notice->informativeText()));
    QVERIFY2(notice->informativeText().contains(journal), qPrintable(notice->informativeText()));
    screenshot(notice, QStringLiteral("realign-13-damaged-journal"));
    notice->button(QMessageBox::Close)->click();
    QVERIFY(QTest::qWaitFor([&] { return !w.realign->resumeOffer(); }, 5000));
    QVERIFY(!w.realign->wizard());
    QVERIFY(QFile::exists(journal));
}

// Realign… on a selected partition that is only off the grain chooses it too; with edits
// queued for the disk, the wizard does not open and a notice says why.

QTEST_MAIN(RealignRefusalsTest)
#include "tst_realignrefusals.moc"
