// Realigning another machine's disk in the wizard, the helper there planning, moving and
// finishing: an XP disk to 4 KiB and to 1 MiB with every NTFS file compared; a move cancelled,
// its helper killed, or its ssh client killed (real OpenSSH to a private sshd), each finished
// byte for byte; a connection closed under a plan or a move; a disk changed after its plan,
// which the helper does not write.
#include "buildsetting.h"
#include "disklistmodel.h"
#include "editing/applydialog.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "guitestsupport.h"
#include "helper/connectdialog.h"
#include "helper/helperrealignbackend.h"
#include "helper/remotemachines.h"
#include "helper/sshcommand.h"
#include "ops/writejournal.h"
#include "partitionmodel.h"
#include "realign/realignbackend.h"
#include "realign/realignbanner.h"
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "remotemachinefixture.h"
#include "window/mainwindow.h"

#include "clirun.h"
#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "sshserver.h"
#include "toolrun.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <csignal>
#include <memory>

using namespace partwise;

using namespace guitest;
using namespace pwtest;

namespace {

constexpr qint64 kSector = 512;

} // namespace

class TestRemoteRealign : public RemoteMachineFixture
{
    Q_OBJECT

private slots:
    void initTestCase();
    void realignedThereWithEveryFile();
    void connectionKilledMidMoveThenResumed_data();
    void connectionKilledMidMoveThenResumed();
    void closedConnectionEndsThePlanAndTheMove();
    void diskChangedAfterThePlanIsNotWritten();
};

void TestRemoteRealign::initTestCase()
{
    setUpFixture();
}

void TestRemoteRealign::realignedThereWithEveryFile()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // A Windows XP disk (NTFS at sector 63 with sample files), as a teacher would bring one.
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    const QString image = m_dir.filePath(QStringLiteral("xp.img"));
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("windows-xp"), image,
                                   QStringLiteral("--size"), QStringLiteral("128M")});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    QString error;
    const QMap<QString, QByteArray> files =
        filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ntfs"), &error);
    QVERIFY2(error.isEmpty() && !files.isEmpty(), qPrintable(error));
    QCOMPARE(SfdiskTable::read(loop.path()).partitions.first().start, 63);

    chooseSsh(false, nullptr);
    MainWindow window;
    RemoteMachines *machines = showRemote(window, loop.path());
    QVERIFY(machines);
    RealignController *realign = installHelperRealign(window, machines);
    QTRY_VERIFY(realign->realignAction()->isEnabled());
    // Realigning works on the disk as it is: with an edit queued it is refused, as here.
    Operation label;
    label.type = Operation::Type::SetLabel;
    label.number = 1;
    label.label = QStringLiteral("QUEUED");
    QString queueError;
    QVERIFY2(window.editing()->queue(label, &queueError), qPrintable(queueError));
    realign->realignAction()->trigger();
    QVERIFY(!realign->wizard());
    auto *notice = window.findChild<QMessageBox *>(QStringLiteral("realignPendingNotice"));
    QVERIFY(notice);
    QVERIFY2(notice->text().startsWith(
                 QStringLiteral("%1 on localhost has pending operations").arg(loop.path())),
             qPrintable(notice->text()));
    notice->accept();
    window.editing()->pending()->clear();

    realign->realignAction()->trigger();
    RealignWizard *wizard = realign->wizard();
    QVERIFY(wizard);
    QCOMPARE(wizard->windowTitle(),
             QStringLiteral("Realign Partitions — %1 on localhost").arg(loop.path()));
    wizard->next();
    // The smallest move first: the next 4 KiB boundary is sector 64, as the helper plans it.
    RealignPlanPage *plan = planFor(wizard, 4096);
    QVERIFY(plan);
    QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
    QCOMPARE(plan->moveTable()->topLevelItem(0)->text(1).toLongLong(), 63);
    QCOMPARE(plan->moveTable()->topLevelItem(0)->text(3).toLongLong(), 64);
    // The 1 MiB grain, which is run.
    wizard->back();
    plan = planFor(wizard, 1 << 20);
    QVERIFY(plan);
    QCOMPARE(plan->moveTable()->topLevelItem(0)->text(3).toLongLong(), 2048);
    QVERIFY2(plan->busy().isEmpty(), qPrintable(plan->busy().join(QLatin1Char(' '))));
    plan->backupConfirmation()->setChecked(true);
    saveScreenshot(wizard, QStringLiteral("remote-realign-plan"));
    wizard->next();
    QVERIFY(QTest::qWaitFor([&] { return wizard->runPage()->isFinished(); }, 300000));
    QVERIFY2(wizard->result().ok,
             qPrintable(wizard->result().error + '\n' + wizard->runPage()->logText()));
    wizard->next();
    QVERIFY2(wizard->resultPage()
                 ->checkLines()
                 .join(QLatin1Char(' '))
                 .contains(QStringLiteral("partition 1 (ntfs)")),
             qPrintable(wizard->resultPage()->checkLines().join(QLatin1Char('\n'))));
    saveScreenshot(wizard, QStringLiteral("remote-realign-done"));

    // sfdisk, the files and ntfsfix say the same as the wizard.
    QCOMPARE(SfdiskTable::read(loop.path()).partitions.first().start, 2048);
    QVERIFY(loop.addPartitions());
    const QStringList diff = compareTrees(
        files, filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ntfs"), &error));
    QVERIFY2(diff.isEmpty() && error.isEmpty(), qPrintable(diff.join(QLatin1Char(' ')) + error));
    const ToolResult fsck = checkFilesystemReadOnly(loop.partitionNode(1), QStringLiteral("ntfs"));
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
    // The window reads the disk again and shows it aligned.
    QTRY_COMPARE_WITH_TIMEOUT(
        window.diskList()->entry(rowOf(window, loop.path())).report.misalignedCount(), 0, 60000);
    wizard->accept();
}

void TestRemoteRealign::connectionKilledMidMoveThenResumed_data()
{
    QTest::addColumn<bool>("realSsh");
    QTest::addColumn<QString>("destination");
    QTest::addColumn<bool>("cancel");
    // The user presses Cancel Move: the helper stops at a chunk, and Resume is offered at once.
    QTest::newRow("cancelled") << false << QStringLiteral("root@localhost") << true;
    // The helper itself killed: what a crash there looks like.
    QTest::newRow("helper killed") << false << QStringLiteral("root@localhost") << false;
    // OpenSSH to this machine, its client killed: what a dropped connection looks like; the
    // helper on the far side learns it from sshd closing its input.
    QTest::newRow("ssh client killed") << true << QStringLiteral("root@127.0.0.1") << false;
}

void TestRemoteRealign::connectionKilledMidMoveThenResumed()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QFETCH(bool, realSsh);
    QFETCH(QString, destination);
    QFETCH(bool, cancel);
    const QString machine = destination.section(QLatin1Char('@'), -1);
    std::unique_ptr<SshServer> sshd;
    chooseSsh(realSsh, &sshd);
    if (QTest::currentTestFailed())
        return;
    // 256 MiB of random bytes at GPT sector 34 with no filesystem: copied whole, long enough
    // to be cut off in the middle.
    const QString image = m_dir.filePath(QStringLiteral("raw.img"));
    QByteArray data(256 << 20, Qt::Uninitialized);
    QRandomGenerator(7).fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
    {
        QFile file(image);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(300LL << 20));
        QVERIFY(file.seek(34 * kSector) && file.write(data) == data.size());
    }
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nfirst-lba: 34\nstart=34, size=557056\n")
                .ok());
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    // A failure half-way must not leave this loop device's journal to the next test that gets
    // the same device name (journals of disks live in /var/lib/partwise).
    const QString journal = WriteJournal::defaultPath(loop.path());
    const auto dropJournal = qScopeGuard([journal] {
        QFile::remove(WriteJournal().dataJournalPath(journal));
        QFile::remove(journal);
    });

    MainWindow window;
    RemoteMachines *machines = showRemote(window, loop.path(), destination);
    QVERIFY(machines);
    RealignController *realign = installHelperRealign(window, machines);
    QTRY_VERIFY(realign->realignAction()->isEnabled());
    realign->realignAction()->trigger();
    RealignWizard *wizard = realign->wizard();
    QVERIFY(wizard);
    wizard->next();
    RealignPlanPage *plan = planFor(wizard, 1 << 20);
    QVERIFY(plan && plan->prepared().ok);
    plan->backupConfirmation()->setChecked(true);
    // On the first progress report: the wizard's Cancel, or the helper (or ssh) killed.
    HelperConnection *helper = machines->connection(machine);
    const qint64 pid = helper->processId();
    auto struck = std::make_shared<bool>(false); // once: the resume reports progress too
    connect(wizard->backend(), &RealignBackend::progress, wizard, [=] {
        if (std::exchange(*struck, true))
            return;
        if (cancel)
            wizard->runPage()->cancelButton()->click();
        else
            ::kill(pid_t(pid), SIGKILL);
    });
    wizard->next();
    QVERIFY(QTest::qWaitFor([&] { return wizard->runPage()->isFinished(); }, 300000));
    QVERIFY(!wizard->result().ok);
    QVERIFY(wizard->result().resumable);
    wizard->next();
    const QString said = wizard->resultPage()->outcomeText() + '\n' + wizard->result().error;
    QVERIFY2(said.contains(cancel ? QStringLiteral("You cancelled")
                                  : QStringLiteral("connection to the helper was lost")) &&
                 said.contains(QStringLiteral("nothing is lost")),
             qPrintable(said));
    QVERIFY2(SfdiskTable::read(loop.path()).partitions.first().start == 34,
             "the table changed before the data was moved");
    if (cancel) {
        // Resume Now, from the same wizard.
        wizard->resultPage()->resumeButton()->click();
    } else {
        wizard->accept();
        QTRY_VERIFY(!realign->wizard());
        // Connected again, the disk says its realignment stopped part-way; the banner and
        // Realign… finish it in the wizard, through the new helper.
        QSignalSpy read(machines, &RemoteMachines::machineRead);
        machines->connectTo({destination, false});
        QVERIFY(read.wait(120000));
        window.findChild<QComboBox *>(QStringLiteral("deviceChooser"))
            ->setCurrentIndex(rowOf(window, loop.path(), machine));
        QTRY_COMPARE(realign->banner()->mode(), RealignBanner::Mode::Interrupted);
        QVERIFY2(realign->banner()->text().contains(journal),
                 qPrintable(realign->banner()->text()));
        realign->banner()->button()->click(); // Finish…
        wizard = realign->wizard();
        QVERIFY(wizard && wizard->isResume());
        QCOMPARE(wizard->currentId(), int(RealignWizard::RunPageId));
    }
    QVERIFY(QTest::qWaitFor(
        [&] { return wizard->runPage()->isFinished() && !wizard->runPage()->isRunning(); },
        300000));
    QVERIFY2(wizard->result().ok,
             qPrintable(wizard->result().error + '\n' + wizard->runPage()->logText()));
    QCOMPARE(SfdiskTable::read(loop.path()).partitions.first().start, 2048);
    QFile device(loop.path());
    QVERIFY(device.open(QIODevice::ReadOnly) && device.seek(2048 * kSector));
    QVERIFY2(device.read(data.size()) == data, "the partition's bytes differ after the resume");
    QVERIFY2(!QFile::exists(journal), "the finished realignment left its journal");
    wizard->next();
    wizard->accept();
}

void TestRemoteRealign::closedConnectionEndsThePlanAndTheMove()
{
    // A helper that answers `version` and then nothing, as one stuck on a dead network.
    const QString script = m_dir.filePath(QStringLiteral("silent-helper"));
    QVERIFY(writeScript(script, "read line\n"
                                "echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"partwise\":"
                                "\"t\",\"protocol\":1}}'\nexec cat >/dev/null\n"));
    const auto silentHelper = [&] {
        auto *helper = new HelperConnection({script, {}, QStringLiteral("silent"), {}, true});
        QSignalSpy ready(helper, &HelperConnection::ready);
        helper->start();
        return ready.wait(10000) ? helper : nullptr;
    };
    // The plan asked for, then the connection replaced (Connect again) or closed.
    HelperConnection *helper = silentHelper();
    QVERIFY(helper);
    HelperRealignBackend planning(helper, QStringLiteral("/dev/sdz"));
    QString planError;
    connect(&planning, &RealignBackend::prepared, this, [&](const PreparedRealign &plan) {
        planError = plan.ok ? QStringLiteral("ok") : plan.error;
    });
    planning.prepare(QStringLiteral("silent:/dev/sdz"), RealignOptions(), RealignRequest());
    QVERIFY(planning.isBusy());
    QTest::qWait(200);
    QVERIFY(planError.isEmpty()); // nothing came back
    delete helper;
    QVERIFY2(planError.contains(QStringLiteral("connection to the helper was lost")),
             qPrintable(planError));
    QVERIFY(!planning.isBusy());

    // The same for a move: it ends as stopped where its journal there lets it be finished.
    helper = silentHelper();
    QVERIFY(helper);
    HelperRealignBackend moving(helper, QStringLiteral("/dev/sdz"));
    std::optional<RealignResult> ended;
    connect(&moving, &RealignBackend::finished, this,
            [&](const RealignResult &result) { ended = result; });
    PreparedRealign plan;
    plan.ok = true;
    PartitionMove move;
    move.number = 1;
    move.oldStart = 63;
    move.oldEnd = 999;
    move.newStart = 2048;
    move.newEnd = 2984;
    plan.plan.moves << move;
    moving.run(QStringLiteral("silent:/dev/sdz"), plan, RealignOptions());
    QVERIFY(moving.isBusy());
    delete helper;
    QVERIFY(ended.has_value());
    QVERIFY(!ended->ok && ended->resumable);
    QVERIFY(!moving.isBusy());
}

void TestRemoteRealign::diskChangedAfterThePlanIsNotWritten()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // A GPT partition at sector 34, planned in the wizard, then made smaller behind its back.
    const QString image = m_dir.filePath(QStringLiteral("changed.img"));
    QString made;
    QVERIFY2(SfdiskTable::writeImage(image, 64LL << 20,
                                     "label: gpt\nfirst-lba: 34\nstart=34, size=20000\n", &made),
             qPrintable(made));
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    chooseSsh(false, nullptr);
    MainWindow window;
    RemoteMachines *machines = showRemote(window, loop.path());
    QVERIFY(machines);
    RealignController *realign = installHelperRealign(window, machines);
    QTRY_VERIFY(realign->realignAction()->isEnabled());
    realign->realignAction()->trigger();
    RealignWizard *wizard = realign->wizard();
    QVERIFY(wizard);
    wizard->next();
    RealignPlanPage *plan = planFor(wizard, 1 << 20);
    QVERIFY(plan && plan->prepared().ok);
    QCOMPARE(plan->prepared().plan.moves.first().newEnd, 2048 + 20000 - 1);
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), loop.path()},
                    "label: gpt\nfirst-lba: 34\nstart=34, size=16000\n")
                .ok());
    const QByteArray before = fileSha256(loop.path());
    plan->backupConfirmation()->setChecked(true);
    wizard->next();
    QVERIFY(QTest::qWaitFor([&] { return wizard->runPage()->isFinished(); }, 120000));
    QVERIFY(!wizard->result().ok && !wizard->result().resumable);
    QVERIFY2(wizard->result().error.contains(QStringLiteral("The disk changed since the plan")),
             qPrintable(wizard->result().error));
    wizard->next();
    QVERIFY2(wizard->resultPage()->outcomeText().contains(QStringLiteral("did not start")),
             qPrintable(wizard->resultPage()->outcomeText()));
    // Not a byte written, no journal begun; sfdisk sees the table as it was changed to.
    QCOMPARE(fileSha256(loop.path()), before);
    QVERIFY(!QFile::exists(WriteJournal::defaultPath(loop.path())));
    QCOMPARE(SfdiskTable::read(loop.path()).partitions.first().size, 16000);
    wizard->accept();
}

QTEST_MAIN(TestRemoteRealign)
#include "tst_remoterealign.moc"
