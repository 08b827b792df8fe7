// File → Connect to Machine…: another machine's disks shown from what its helper sent. "ssh" is
// a stand-in (PARTWISE_SSH) that records the arguments it was given and runs the remote command
// on this machine, as `ssh root@localhost` would, and for the dropped connection also real
// OpenSSH to a private sshd on 127.0.0.1; the disk is a loop device whose table sfdisk wrote
// and reads back. Also what a user meets when it goes wrong: a helper killed while the
// window shows its disks, a login that prints a banner instead of the protocol, a machine that
// refuses the connection, and destinations that would smuggle options into ssh. A disk there
// is edited too: a partition queued here, applied by the helper, read back with sfdisk.
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

bool writeScript(const QString &path, const QByteArray &body)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write("#!/bin/sh\n" + body);
    f.close();
    return f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
}

} // namespace

class TestRemoteMachine : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void destinationsThatAreNotMachinesAreRefused();
    void connectDialogExplainsABadName();
    void sshIsAskedForTheHelperOnly();
    void remoteDiskShownAsSfdiskSeesIt();
    void killedHelperIsReportedAndReconnects();
    void realignedThereWithEveryFile();
    void editedThereAsSfdiskSeesIt();
    void connectionKilledMidMoveThenResumed_data();
    void connectionKilledMidMoveThenResumed();
    void bannerInsteadOfProtocolEndsTheConnection();
    void refusedConnectionSaysWhy();
    void closedConnectionEndsThePlanAndTheMove();
    void diskChangedAfterThePlanIsNotWritten();

private:
    // Points PARTWISE_SSH at a script with `body`, which gets ssh's arguments.
    void useSsh(const QByteArray &body);
    // The disk list's row for `devicePath` on `machine`, or -1.
    static int rowOf(MainWindow &window, const QString &devicePath,
                     const QString &machine = QStringLiteral("localhost"));
    // Connects to `destination` (through the pass-through stand-in unless PARTWISE_SSH is
    // already set to a real ssh) and shows `devicePath`.
    RemoteMachines *showRemote(MainWindow &window, const QString &devicePath,
                               const QString &destination = QStringLiteral("root@localhost"));
    // The window's realignment half, its wizard working through the machines' helpers.
    static RealignController *installHelperRealign(MainWindow &window, RemoteMachines *machines);
    // From the wizard's choose page: the plan for `grain`, once it is in (null if it is not).
    static RealignPlanPage *planFor(RealignWizard *wizard, qint64 grain);
    // The pass-through stand-in, or a real ssh to a private sshd for `realSsh`.
    void chooseSsh(bool realSsh, std::unique_ptr<SshServer> *server);
    // Connects to "localhost" through an "ssh" script that never speaks the protocol; returns
    // the feature once the connection is lost (null if it never is), and why.
    RemoteMachines *connectUntilLost(MainWindow &window, const QByteArray &ssh, QString *why);

    QTemporaryDir m_dir;
    QString m_argsFile;
};

void TestRemoteMachine::initTestCase()
{
    useTestSettings();
    QVERIFY(m_dir.isValid());
    m_argsFile = m_dir.filePath(QStringLiteral("ssh-args"));
    // The "remote" partwise-cli is found on PATH, as on a machine where it is installed.
    const QString cliFolder = QFileInfo(QStringLiteral(PARTWISE_CLI)).absolutePath();
    qputenv("PATH", (cliFolder + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());
}

void TestRemoteMachine::useSsh(const QByteArray &body)
{
    const QString script = m_dir.filePath(QStringLiteral("ssh"));
    QFile::remove(script);
    QVERIFY(writeScript(script, body));
    qputenv("PARTWISE_SSH", QFile::encodeName(script));
}

int TestRemoteMachine::rowOf(MainWindow &window, const QString &devicePath, const QString &machine)
{
    return window.diskList()->rowOf(DiskListModel::machineKey(machine, devicePath));
}

void TestRemoteMachine::chooseSsh(bool realSsh, std::unique_ptr<SshServer> *server)
{
    if (!realSsh) {
        useSsh("while [ \"$1\" != -- ]; do shift; done; shift 2; exec \"$@\"\n");
        return;
    }
    *server = std::make_unique<SshServer>(QFileInfo(QStringLiteral(PARTWISE_CLI)).absolutePath());
    QVERIFY2((*server)->ok(), qPrintable((*server)->error()));
    qputenv("PARTWISE_SSH", QFile::encodeName((*server)->clientProgram()));
}

RemoteMachines *TestRemoteMachine::showRemote(MainWindow &window, const QString &devicePath,
                                              const QString &destination)
{
    RemoteMachines *machines = installRemoteMachines(&window);
    QSignalSpy read(machines, &RemoteMachines::machineRead);
    machines->connectTo({destination, false});
    const QString machine = destination.section(QLatin1Char('@'), -1);
    if (!read.wait(120000) || rowOf(window, devicePath, machine) < 0)
        return nullptr;
    window.findChild<QComboBox *>(QStringLiteral("deviceChooser"))
        ->setCurrentIndex(rowOf(window, devicePath, machine));
    return machines;
}

RealignController *TestRemoteMachine::installHelperRealign(MainWindow &window,
                                                           RemoteMachines *machines)
{
    RealignController *realign = installRealign(&window, window.editing());
    realign->setHelperRealign(machines->realignThroughHelpers());
    return realign;
}

RealignPlanPage *TestRemoteMachine::planFor(RealignWizard *wizard, qint64 grain)
{
    wizard->choosePage()->setGrainBytes(grain);
    wizard->next();
    RealignPlanPage *plan = wizard->planPage();
    return QTest::qWaitFor([&] { return plan->isReady(); }, 60000) ? plan : nullptr;
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
    QVERIFY2(window.statusText().contains(QStringLiteral("on localhost, through its helper")),
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

void TestRemoteMachine::realignedThereWithEveryFile()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // A Windows XP disk (NTFS at sector 63 with sample files), as a teacher would bring one.
    setCliPath(QStringLiteral(PARTWISE_CLI));
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
}

void TestRemoteMachine::connectionKilledMidMoveThenResumed_data()
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

void TestRemoteMachine::connectionKilledMidMoveThenResumed()
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

void TestRemoteMachine::closedConnectionEndsThePlanAndTheMove()
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

void TestRemoteMachine::diskChangedAfterThePlanIsNotWritten()
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

QTEST_MAIN(TestRemoteMachine)
#include "tst_remotemachine.moc"
