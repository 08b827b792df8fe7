// File → Connect to Machine…: another machine's disks shown from what its helper sent. "ssh" is
// a stand-in (PARTWISE_SSH) that records the arguments it was given and runs the remote command
// on this machine, as `ssh root@localhost` would; the disk is a loop device whose table sfdisk
// wrote and reads back (realigning it is tst_remoterealign's). Also what a user meets when it goes
// wrong: a helper killed while the window shows its disks, a login that prints a banner instead of
// the protocol, a machine that refuses the connection, and destinations that would smuggle options
// into ssh. A disk there is edited too: a partition queued here, applied by the helper, read back
// with sfdisk.
#include "disklistmodel.h"
#include "editing/applydialog.h"
#include "editing/editingcontroller.h"
#include "editing/lastapplyundo.h"
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

#include "buildsetting.h"
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
#include <QRegularExpression>
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

class TestRemoteMachine : public RemoteMachineFixture
{
    Q_OBJECT

private slots:
    void initTestCase();
    void destinationsThatAreNotMachinesAreRefused();
    void connectDialogExplainsABadName();
    void sshIsAskedForTheHelperOnly();
    void remoteDiskShownAsSfdiskSeesIt();
    void killedHelperIsReportedAndReconnects();
    void editedThereAsSfdiskSeesIt();
    void helperApplyShowsBytesAndCancels();
    void bannerInsteadOfProtocolEndsTheConnection();
    void refusedConnectionSaysWhy();

private:
    // Connects to "localhost" through an "ssh" script that never speaks the protocol; returns
    // the feature once the connection is lost (null if it never is), and why.
    RemoteMachines *connectUntilLost(MainWindow &window, const QByteArray &ssh, QString *why);
};

void TestRemoteMachine::initTestCase()
{
    setUpFixture();
}

void TestRemoteMachine::destinationsThatAreNotMachinesAreRefused()
{
    for (const char *bad : {"-oProxyCommand=touch /tmp/x", "host name", "root@host;reboot",
                            "$(reboot)", "user@", "@host", "host\nother", "host\n"})
        QVERIFY2(!sshDestinationProblem(QString::fromUtf8(bad)).isEmpty(), bad);
    for (const char *good : {"localhost", "root@server.example.org", "user@192.168.1.20",
                             "admin@[fe80::1%eth0]", "rescue-pc"})
        QVERIFY2(sshDestinationProblem(QString::fromUtf8(good)).isEmpty(), good);
}

void TestRemoteMachine::connectDialogExplainsABadName()
{
    ConnectDialog dialog;
    auto *edit = dialog.findChild<QLineEdit *>(QStringLiteral("destinationEdit"));
    auto *problem = dialog.findChild<QLabel *>(QStringLiteral("destinationProblem"));
    auto *buttons = dialog.findChild<QDialogButtonBox *>();
    QVERIFY(edit && problem && buttons);
    QPushButton *connectButton = buttons->button(QDialogButtonBox::Ok);
    dialog.show();
    edit->clear();
    QTest::keyClicks(edit, QStringLiteral("-oProxyCommand=sh"));
    QVERIFY(!connectButton->isEnabled());
    QVERIFY2(problem->text().contains(QStringLiteral("“-”")), qPrintable(problem->text()));
    saveScreenshot(&dialog, QStringLiteral("connect-dialog-refused"));
    edit->clear();
    QTest::keyClicks(edit, QStringLiteral("root@rescue-pc"));
    QVERIFY(connectButton->isEnabled() && problem->text().isEmpty());
    auto *sudo = dialog.findChild<QCheckBox *>(QStringLiteral("sudoCheck"));
    QVERIFY(sudo);
    sudo->setChecked(true);
    QCOMPARE(dialog.target().destination, QStringLiteral("root@rescue-pc"));
    QVERIFY(dialog.target().useSudo);
    saveScreenshot(&dialog, QStringLiteral("connect-dialog"));
}

void TestRemoteMachine::sshIsAskedForTheHelperOnly()
{
    // The destination comes after "--", so ssh can never read it as an option, and the
    // remote command is the helper, through sudo -n when asked.
    useSsh("printf '%s\\n' \"$@\" > '" + QFile::encodeName(m_argsFile) + "'\n");
    MainWindow window;
    RemoteMachines *machines = installRemoteMachines(&window);
    QSignalSpy lost(machines, &RemoteMachines::machineLost);
    machines->connectTo({QStringLiteral("admin@localhost"), true});
    QVERIFY(lost.wait(20000));
    QFile args(m_argsFile);
    QVERIFY(args.open(QIODevice::ReadOnly));
    const QStringList given = QString::fromUtf8(args.readAll()).split('\n', Qt::SkipEmptyParts);
    const qsizetype dashes = given.indexOf(QStringLiteral("--"));
    QVERIFY2(dashes >= 0, qPrintable(given.join(' ')));
    QCOMPARE(given.mid(dashes + 1),
             QStringList({"admin@localhost", "sudo", "-n", "partwise-cli", "serve"}));
    QVERIFY(given.contains(QStringLiteral("-T")));
}

void TestRemoteMachine::remoteDiskShownAsSfdiskSeesIt()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // An old fdisk layout: one partition at 63 (misaligned), one at 1 MiB.
    const QString image = m_dir.filePath(QStringLiteral("remote.img"));
    QString made;
    QVERIFY2(SfdiskTable::writeImage(
                 image, 64LL << 20,
                 "label: dos\nstart=63, size=20000, type=83\nstart=40960, size=40960, type=7\n",
                 &made),
             qPrintable(made));
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const SfdiskTable expected = SfdiskTable::read(loop.path());
    QVERIFY2(expected.ok, qPrintable(expected.error));

    // Runs the remote command here, as `ssh root@localhost` would.
    useSsh("while [ \"$1\" != -- ]; do shift; done; shift 2; exec \"$@\"\n");
    MainWindow window;
    RemoteMachines *machines = installRemoteMachines(&window);
    QSignalSpy read(machines, &RemoteMachines::machineRead);
    machines->connectTo({QStringLiteral("root@localhost"), false});
    QVERIFY(read.wait(120000));
    const int row = rowOf(window, loop.path());
    QVERIFY2(row >= 0, "the loop device is not among the machine's disks");
    const DiskEntry &entry = window.diskList()->entry(row);
    QCOMPARE(entry.state, DiskEntry::State::Ready);
    QVERIFY(window.diskList()
                ->data(window.diskList()->index(row), Qt::DisplayRole)
                .toString()
                .startsWith(loop.path() + QStringLiteral(" on localhost")));

    QComboBox *chooser = window.findChild<QComboBox *>(QStringLiteral("deviceChooser"));
    chooser->setCurrentIndex(row);
    QTRY_COMPARE(window.currentPath(), entry.path);
    const PartitionModel &model = *window.partitionModel();
    QCOMPARE(model.layout().device.topology.logicalSectorSize, kSector);
    int misaligned = 0;
    for (const SfdiskPartition &p : expected.partitions) {
        const int r = rowOfPartition(model, p.number);
        QVERIFY2(r >= 0, qPrintable(p.node));
        QCOMPARE(model.region(r).startSector, p.start);
        QCOMPARE(model.region(r).endSector, p.end());
        // ARCHITECTURE.md: a drive saying 512-byte physical sectors is taken to have 4 KiB ones.
        const Expected want = expectedStatus(p.start, kSector, 4096, 1 << 20, false);
        QCOMPARE(int(model.verdict(r).status), int(want));
        misaligned += want == Expected::Misaligned;
    }
    QCOMPARE(misaligned, 1);
    // Offered for editing as a disk of this machine would be (editedThereAsSfdiskSeesIt).
    QVERIFY(window.currentLayout());
    // The disk by its name and machine, not by what reads it.
    QVERIFY2(window.statusText().contains(QStringLiteral("on localhost")) &&
                 !window.statusText().contains(QStringLiteral("helper")),
             qPrintable(window.statusText()));
    saveScreenshot(&window, QStringLiteral("remote-machine"));
}

void TestRemoteMachine::killedHelperIsReportedAndReconnects()
{
    // The machine's disks as list-disks gives them; the helper is killed once they are read.
    useSsh("while [ \"$1\" != -- ]; do shift; done; shift 2; exec \"$@\"\n");
    MainWindow window;
    RemoteMachines *machines = installRemoteMachines(&window);
    QSignalSpy read(machines, &RemoteMachines::machineRead);
    QSignalSpy lost(machines, &RemoteMachines::machineLost);
    machines->connectTo({QStringLiteral("localhost"), false});
    QVERIFY(read.wait(120000));
    const QStringList keys = window.diskList()->keysOf(QStringLiteral("localhost"));
    HelperConnection *helper = machines->connection(QStringLiteral("localhost"));
    QVERIFY(helper && helper->processId() > 0);
    QCOMPARE(::kill(pid_t(helper->processId()), SIGKILL), 0);

    QVERIFY(lost.wait(10000));
    QVERIFY2(lost.first().at(1).toString().contains(QStringLiteral("stopped unexpectedly")),
             qPrintable(lost.first().at(1).toString()));
    for (const QString &key : keys) {
        const DiskEntry &entry = window.diskList()->entry(window.diskList()->rowOf(key));
        QCOMPARE(entry.state, DiskEntry::State::Failed);
        QVERIFY(entry.error.contains(QStringLiteral("localhost")));
    }
    QMessageBox *notice = machines->deathNotice();
    QVERIFY(notice && notice->isVisible());
    QVERIFY(notice->text().contains(QStringLiteral("localhost")));
    saveScreenshot(notice, QStringLiteral("remote-machine-lost"));

    auto *again = notice->findChild<QPushButton *>(QStringLiteral("reconnectButton"));
    QVERIFY(again);
    again->click();
    QVERIFY(read.wait(120000));
    for (const QString &key : keys) {
        const int row = window.diskList()->rowOf(key);
        QVERIFY2(row >= 0, qPrintable(key));
        QVERIFY(window.diskList()->entry(row).state != DiskEntry::State::Reading);
    }
    QVERIFY(machines->connection(QStringLiteral("localhost"))->isReady());
}

void TestRemoteMachine::editedThereAsSfdiskSeesIt()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // A GPT disk with an ext4 partition full of files, and free space after it.
    const QString image = m_dir.filePath(QStringLiteral("edit.img"));
    QString made;
    QVERIFY2(SfdiskTable::writeImage(image, 96LL << 20,
                                     "label: gpt\nstart=2048, size=65536, type=L\n", &made),
             qPrintable(made));
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    QString error;
    const QString tree = m_dir.filePath(QStringLiteral("edit-files"));
    QVERIFY2(makeFileTree(tree, 40, 4 << 20, 7, &error), qPrintable(error));
    QVERIFY2(
        makeFilesystem(loop.partitionNode(1), QStringLiteral("ext4"), QString(), 2048, &error) &&
            fillFilesystem(loop.partitionNode(1), QStringLiteral("ext4"), tree, &error),
        qPrintable(error));
    const QMap<QString, QByteArray> files =
        filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ext4"), &error);
    QVERIFY2(error.isEmpty() && files.size() == 41, qPrintable(error));

    chooseSsh(false, nullptr);
    MainWindow window;
    QVERIFY(showRemote(window, loop.path()));
    QTRY_COMPARE(window.currentPath(),
                 DiskListModel::machineKey(QStringLiteral("localhost"), loop.path()));
    // A new 16 MiB FAT partition in the free space, queued and previewed as here.
    Operation create;
    create.type = Operation::Type::Create;
    create.sizeBytes = 16LL << 20;
    create.filesystem = QStringLiteral("vfat");
    create.label = QStringLiteral("REMOTE");
    QVERIFY(window.editing()->queue(create));
    QCOMPARE(window.partitionModel()->layout().partitions().size(), 2);

    // Apply as a person would: confirm, watch the helper's dialog finish, close it.
    QString applyLog, appliedBy;
    const bool applied = applyPendingAndClose(window.editing(), &appliedBy, &applyLog);
    QVERIFY2(applied, qPrintable(applyLog));
    // Written by the helper on the machine, which the dialog names.
    QCOMPARE(appliedBy, QStringLiteral("Apply Pending Operations on localhost"));
    QVERIFY2(applyLog.contains(QStringLiteral("backup")), qPrintable(applyLog));
    // Root's backup of this test's disk goes with the test: in root's folder, or in the one the
    // suites name for root (PARTWISE_BACKUP_ROOT), which a helper root runs here may follow.
    QString roots = QStringLiteral("/var/backups/partwise");
    if (const QString named = qEnvironmentVariable("PARTWISE_BACKUP_ROOT"); !named.isEmpty())
        roots += QLatin1Char('|') + QRegularExpression::escape(named);
    const QString backup =
        QRegularExpression(QStringLiteral("(%1)/[^\\s/]+").arg(roots)).match(applyLog).captured();
    QVERIFY(!backup.isEmpty());
    const auto removeBackup = qScopeGuard([backup] {
        if (!backup.isEmpty())
            QDir(backup).removeRecursively();
    });

    // sfdisk and blkid on the machine see the partition; the ext4 files are as they were.
    const SfdiskTable table = SfdiskTable::read(loop.path());
    QVERIFY2(table.ok && table.partitions.size() == 2, qPrintable(table.error));
    QCOMPARE(table.partitions.at(1).start % 2048, 0);
    QCOMPARE(table.partitions.at(1).size * kSector, 16LL << 20);
    QVERIFY(loop.addPartitions());
    const ToolResult blkid =
        runTool(QStringLiteral("blkid"),
                {QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                 QStringLiteral("LABEL"), loop.partitionNode(2)});
    QCOMPARE(blkid.out.trimmed(), QByteArray("REMOTE"));
    const QStringList diff = compareTrees(
        files, filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ext4"), &error));
    QVERIFY2(diff.isEmpty() && error.isEmpty(), qPrintable(diff.join(QLatin1Char(' ')) + error));
    // The helper read the disk again: the window shows what sfdisk shows, nothing pending.
    QTRY_COMPARE_WITH_TIMEOUT(
        window.diskList()->entry(rowOf(window, loop.path())).layout.partitions().size(), 2, 60000);
    QVERIFY(window.editing()->pending()->isEmpty());
    // A table change, but root's helper holds its backup: Undo Last Apply does not reach for
    // it, and says where it is and how to put it back.
    QAction *undo = window.editing()->lastApplyUndo()->action();
    QVERIFY(!undo->isEnabled());
    QVERIFY2(undo->statusTip().contains(QStringLiteral("administrator's helper")) &&
                 undo->statusTip().contains(QStringLiteral("sudo partwise-cli restore ")),
             qPrintable(undo->statusTip()));
}

// Apply through the helper, as the window does for a disk it cannot open itself: a move of
// 400 MiB shows its bytes (the helper's progress notifications), Cancel reaches the helper, which
// stops at a safe point: the Create after the move does not run (sfdisk), and a move stopped
// partway is finished by `partwise-cli resume`, as the dialog says, with the rest of the queue. The
// window's Undo Last Apply names the helper's backup instead of reading root's folder.
void TestRemoteMachine::helperApplyShowsBytesAndCancels()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString image = m_dir.filePath(QStringLiteral("cancel.img"));
    QString made;
    QVERIFY2(SfdiskTable::writeImage(image, 512LL << 20,
                                     "label: gpt\nstart=133120, size=819200, type=L\n", &made),
             qPrintable(made));
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    chooseSsh(false, nullptr);
    MainWindow window;
    QVERIFY(showRemote(window, loop.path()));
    QTRY_COMPARE(window.currentPath(),
                 DiskListModel::machineKey(QStringLiteral("localhost"), loop.path()));
    // Partition 1 (unknown contents: moved whole) down to 1 MiB, then a new partition.
    Operation move;
    move.type = Operation::Type::Resize;
    move.number = 1;
    move.startBytes = 2048 * kSector;
    move.sizeBytes = 819200 * kSector;
    Operation create;
    create.type = Operation::Type::Create;
    create.sizeBytes = 16LL << 20;
    QString error;
    QVERIFY2(window.editing()->queue(move, &error) && window.editing()->queue(create, &error),
             qPrintable(error));

    QString bytesSeen, said;
    ApplyResult result;
    bool finished = false;
    ModalAnswers answers([&](QWidget *modal) {
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            box->button(QMessageBox::Yes)->click();
            return;
        }
        auto *d = qobject_cast<ApplyDialog *>(modal);
        if (!d)
            return;
        auto *bytes = d->findChild<QLabel *>(QStringLiteral("applyBytes"));
        auto *cancel = d->findChild<QPushButton *>(QStringLiteral("applyCancelButton"));
        if (!d->isFinished() && bytesSeen.isEmpty() && bytes && bytes->isVisible()) {
            bytesSeen = bytes->text();
            saveScreenshot(d, QStringLiteral("helper-apply-progress"));
            cancel->click();
        } else if (d->isFinished()) {
            result = d->result();
            said = d->findChild<QLabel *>(QStringLiteral("applyStatus"))->text();
            saveScreenshot(d, QStringLiteral("helper-apply-cancelled"));
            finished = true;
            d->accept();
        }
    });
    window.editing()->action(EditingController::Action::Apply)->trigger();
    QVERIFY(finished);
    QVERIFY2(!bytesSeen.isEmpty(), qPrintable(QStringLiteral("no bytes before the end: ") + said));
    QVERIFY2(bytesSeen.startsWith(QStringLiteral("Partition 1, moving: ")) &&
                 bytesSeen.contains(QStringLiteral(" of 400 MiB")),
             qPrintable(bytesSeen));
    // Root's backup of this test's disk, and its journal should the test fail before resume.
    const auto cleanUp = qScopeGuard([&] {
        if (!result.backupFolder.isEmpty())
            QDir(result.backupFolder).removeRecursively();
        QFile::remove(WriteJournal::defaultPath(loop.path()));
        QFile::remove(WriteJournal::defaultPath(loop.path()) + QStringLiteral(".data"));
    });
    QVERIFY(!result.ok);
    QVERIFY(result.completed <= 1);
    QVERIFY2(said.startsWith(
                 QStringLiteral("Cancelled after %1 of 2 operations.").arg(result.completed)),
             qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("2. Create")), qPrintable(said));
    SfdiskTable table = SfdiskTable::read(loop.path());
    QVERIFY2(table.ok, qPrintable(table.error));
    QCOMPARE(table.partitions.size(), 1); // the Create never ran
    if (result.completed == 0) {
        // Stopped inside the move: resumable, as the dialog says, and resume finishes it.
        QVERIFY(result.resumable);
        QVERIFY2(said.contains(QStringLiteral("partwise-cli resume")), qPrintable(said));
        const ToolResult resumed = runTool(pwtest::buildSetting("PARTWISE_CLI"),
                                           {QStringLiteral("resume"), loop.path()}, {}, 300000);
        QVERIFY2(resumed.ok(), qPrintable(resumed.describe() + resumed.out));
        // Resume finishes the queue the journal keeps: the move, then the Create.
        table = SfdiskTable::read(loop.path());
        QCOMPARE(table.partitions.size(), 2);
        QCOMPARE(table.partitions.at(1).size * kSector, 16LL << 20);
    }
    QCOMPARE(table.partitions.at(0).start, qint64(2048));
    QCOMPARE(table.partitions.at(0).size, qint64(819200));
    QVERIFY(!QFile::exists(WriteJournal::defaultPath(loop.path())));
    // Undo Last Apply does not reach into root's backups: it says where they are and how.
    QAction *undo = window.editing()->lastApplyUndo()->action();
    QVERIFY(!undo->isEnabled());
    QVERIFY2(undo->statusTip().contains(QStringLiteral("resized or moved partition 1")),
             qPrintable(undo->statusTip()));
}

RemoteMachines *TestRemoteMachine::connectUntilLost(MainWindow &window, const QByteArray &ssh,
                                                    QString *why)
{
    useSsh(ssh);
    RemoteMachines *machines = installRemoteMachines(&window);
    QSignalSpy lost(machines, &RemoteMachines::machineLost);
    machines->connectTo({QStringLiteral("localhost"), false});
    if (!lost.wait(10000))
        return nullptr;
    *why = lost.first().at(1).toString();
    return machines;
}

void TestRemoteMachine::bannerInsteadOfProtocolEndsTheConnection()
{
    // A login shell that greets on stdout and then waits: the window must not wait with it.
    MainWindow window;
    QString why;
    RemoteMachines *machines =
        connectUntilLost(window, "echo 'Welcome to the rescue system!'\nexec sleep 600\n", &why);
    QVERIFY(machines);
    QVERIFY2(why.contains(QStringLiteral("not Partwise's protocol")) &&
                 why.contains(QStringLiteral("Welcome to the rescue system!")),
             qPrintable(why));
    HelperConnection *helper = machines->connection(QStringLiteral("localhost"));
    QTRY_COMPARE_WITH_TIMEOUT(helper->processId(), 0, 5000); // killed, not left waiting
}

void TestRemoteMachine::refusedConnectionSaysWhy()
{
    MainWindow window;
    QString why;
    RemoteMachines *machines = connectUntilLost(
        window, "echo 'ssh: connect to host localhost port 22: Connection refused' >&2\nexit 255\n",
        &why);
    QVERIFY(machines);
    QVERIFY2(why.contains(QStringLiteral("Connection refused")) &&
                 why.contains(QStringLiteral("255")),
             qPrintable(why));
    QVERIFY(machines->deathNotice() && machines->deathNotice()->isVisible());
}

QTEST_MAIN(TestRemoteMachine)
#include "tst_remotemachine.moc"
