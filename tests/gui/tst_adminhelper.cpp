// The window as a user, this computer's disks through a root helper, as the menu entry starts
// it: the test creates a user and switches its own effective uid (and groups) to it before the
// window is made. From then on opening the loop device fails in this process (checked), so all
// the window shows and writes came through the helper. "pkexec" is a stand-in
// (PARTWISE_PKEXEC) that notes it was asked and starts the helper as root with PKEXEC_UID set,
// as pkexec does once the password is given; this process's real uid is still root, which lets
// the stand-in take root back the way the real pkexec's setuid bit does.
//
// The user's session: File → Open This Computer's Disks…, a partition created and applied,
// the misaligned one realigned from the window's Realign…, then shrunk with Resize/Move (the
// helper measures how far); then, as root again, sfdisk, blkid, e2fsck and every file of the
// ext4 partition say the same. Meanwhile every open() this process makes is watched
// (blockdeviceopens.h): not one of its threads opens, or tries to open, a block device. The
// same watch on a window run as root, which reads disks itself, sees its reading thread open
// the loop device, so the watch sees what it must.
#include "adminhelpertest.h"
#include "blockdeviceopens.h"
#include "buildsetting.h"
#include "disklistmodel.h"
#include "editing/applydialog.h"
#include "editing/editingcontroller.h"
#include "editing/resizepartitiondialog.h"
#include "guitestsupport.h"
#include "helper/helperconnection.h"
#include "helper/remotemachines.h"
#include "partitionmodel.h"
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "window/mainwindow.h"

#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <grp.h>
#include <unistd.h>

using namespace partwise;
using namespace guitest;
using namespace pwtest;
using namespace adminhelpertest;

namespace {

// resize2fs -P's estimate in bytes (dumpe2fs gives the block size).
qint64 ext4MinimumBytes(const QString &node)
{
    const auto number = [](const QByteArray &text, const char *pattern) {
        return QRegularExpression(QLatin1String(pattern), QRegularExpression::MultilineOption)
            .match(QString::fromUtf8(text))
            .captured(1)
            .toLongLong();
    };
    return number(runTool(QStringLiteral("resize2fs"), {QStringLiteral("-P"), node}).out,
                  "minimum size of the filesystem:\\s*(\\d+)") *
           number(runTool(QStringLiteral("dumpe2fs"), {QStringLiteral("-h"), node}).out,
                  "^Block size:\\s+(\\d+)");
}

} // namespace

void TestAdminHelper::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_user.create(QString::fromLatin1(kUser), QStringLiteral("/usr/sbin/nologin")),
             qPrintable(m_user.error()));
    // The user's own folders: the test's, to reach the others through, and the settings'.
    QVERIFY(QFile::setPermissions(m_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                    QFileDevice::ExeOwner | QFileDevice::ExeOther |
                                                    QFileDevice::ReadOther));
    const QString config = m_dir.filePath(QStringLiteral("config"));
    QVERIFY(QDir().mkpath(config));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(config));
    useTestSettings();
    const ToolResult own =
        runTool(QStringLiteral("chown"),
                {QStringLiteral("-R"), QStringLiteral("%1:%2").arg(m_user.uid()).arg(m_user.gid()),
                 config});
    QVERIFY2(own.ok(), qPrintable(own.describe()));
    // The stand-in for pkexec, and the partwise-cli beside it on PATH, as when installed.
    const QString askedFile = m_dir.filePath(QStringLiteral("pkexec-asked"));
    const QString pkexec = m_dir.filePath(QStringLiteral("pkexec"));
    QFile script(pkexec);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(
        QStringLiteral("#!/bin/sh\necho \"$*\" >> '%1'\n"
                       "PKEXEC_UID=%2 exec setpriv --reuid=0 --regid=0 --keep-groups \"$@\"\n")
            .arg(askedFile)
            .arg(m_user.uid())
            .toLocal8Bit());
    script.close();
    QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner |
                                  QFileDevice::ExeOther | QFileDevice::ReadOther));
    qputenv("PARTWISE_PKEXEC", QFile::encodeName(pkexec));
    const QString cliFolder = QFileInfo(pwtest::buildSetting("PARTWISE_CLI")).absolutePath();
    qputenv("PATH", (cliFolder + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());
}

void TestAdminHelper::cleanupTestCase()
{
    m_user.remove();
}

void TestAdminHelper::windowAsUserEditsAndRealignsThroughHelper()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // As root: an old layout, ext4 with files at sector 63, free space after it.
    const QString image = m_dir.filePath(QStringLiteral("disk.img"));
    QString made;
    QVERIFY2(SfdiskTable::writeImage(image, 128LL << 20,
                                     "label: dos\nstart=63, size=81920, type=83\n", &made),
             qPrintable(made));
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    QString error;
    const QString tree = m_dir.filePath(QStringLiteral("files"));
    QVERIFY2(makeFileTree(tree, 30, 2 << 20, 11, &error), qPrintable(error));
    QVERIFY2(makeFilesystem(loop.partitionNode(1), QStringLiteral("ext4"), QString(), 63, &error) &&
                 fillFilesystem(loop.partitionNode(1), QStringLiteral("ext4"), tree, &error),
             qPrintable(error));
    const QMap<QString, QByteArray> files =
        filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ext4"), &error);
    QVERIFY2(error.isEmpty() && files.size() == 31, qPrintable(error));
    // How far e2fsprogs says the ext4 shrinks, for the Resize dialog (it moves, not changes).
    const qint64 minimum = ext4MinimumBytes(loop.partitionNode(1));
    QVERIFY(minimum > 0 && minimum < (32LL << 20));

    QPixmap shot;
    {
        // The window's part, as the user.
        QVERIFY(becomeUser(m_user.uid(), m_user.gid()));
        auto root = qScopeGuard(becomeRootAgain);
        QCOMPARE(::geteuid(), m_user.uid());
        const int fd = ::open(QFile::encodeName(loop.path()).constData(), O_RDONLY | O_CLOEXEC);
        const int openError = errno;
        if (fd >= 0)
            ::close(fd);
        QVERIFY2(fd < 0 && openError == EACCES, "the window's process can open the disk itself");

        startRecordingBlockDeviceOpens();
        auto watch = qScopeGuard([] { stopRecordingBlockDeviceOpens(); });
        MainWindow window;
        RealignController *realign = installRealign(&window, window.editing());
        RemoteMachines *machines = installRemoteMachines(&window);
        realign->setHelperRealign(machines->realignThroughHelpers());
        auto *open = window.findChild<QAction *>(QStringLiteral("openSystemDisksAction"));
        QVERIFY2(open, "a window run as a user offers this computer's disks");
        QSignalSpy read(machines, &RemoteMachines::machineRead);
        open->trigger();
        QVERIFY(read.wait(120000));
        const QString machine = QSysInfo::machineHostName();
        const int row = window.diskList()->rowOf(DiskListModel::machineKey(machine, loop.path()));
        QVERIFY2(row >= 0, "the loop device is not among this computer's disks");
        QCOMPARE(window.diskList()->entry(row).state, DiskEntry::State::Ready);
        window.findChild<QComboBox *>(QStringLiteral("deviceChooser"))->setCurrentIndex(row);
        QTRY_COMPARE(window.currentPath(), window.diskList()->entry(row).path);
        QCOMPARE(window.partitionModel()->layout().partitions().first().startSector, 63);
        QTest::qWait(50);
        shot = window.grab(); // saved as root: the build tree is not the user's

        // Edit: a FAT partition after the ext4 one.
        Operation create;
        create.type = Operation::Type::Create;
        create.sizeBytes = 16LL << 20;
        create.filesystem = QStringLiteral("vfat");
        create.label = QStringLiteral("USERMADE");
        QString queueError;
        QVERIFY2(window.editing()->queue(create, &queueError), qPrintable(queueError));
        QString title, log;
        QVERIFY2(applyPendingAndClose(window.editing(), &title, &log), qPrintable(log));
        QCOMPARE(title, QStringLiteral("Apply Pending Operations on %1").arg(machine));
        QTRY_COMPARE_WITH_TIMEOUT(window.diskList()->entry(row).layout.partitions().size(), 2,
                                  60000);

        // Realign with the window's own wizard, whose work the helper does.
        QTRY_VERIFY(realign->realignAction()->isEnabled());
        realign->realignAction()->trigger();
        RealignWizard *wizard = realign->wizard();
        QVERIFY2(wizard, "Realign… did not open the wizard");
        QCOMPARE(wizard->windowTitle(),
                 QStringLiteral("Realign Partitions — %1 on %2").arg(loop.path(), machine));
        wizard->next();
        wizard->next();
        RealignPlanPage *plan = wizard->planPage();
        QVERIFY(QTest::qWaitFor([&] { return plan->isReady(); }, 60000));
        QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
        QCOMPARE(plan->prepared().plan.moves.first().newStart, 2048);
        QVERIFY2(plan->busy().isEmpty(), qPrintable(plan->busy().join(QLatin1Char(' '))));
        plan->backupConfirmation()->setChecked(true);
        wizard->next();
        QVERIFY(QTest::qWaitFor([&] { return wizard->runPage()->isFinished(); }, 300000));
        QVERIFY2(wizard->result().ok,
                 qPrintable(wizard->result().error + '\n' + wizard->runPage()->logText()));
        wizard->next();
        QVERIFY2(wizard->resultPage()->checkLines().contains(
                     QStringLiteral("partition 1 (ext4): clean")),
                 qPrintable(wizard->resultPage()->checkLines().join(QLatin1Char('\n'))));
        QTRY_COMPARE_WITH_TIMEOUT(window.diskList()->entry(row).report.misalignedCount(), 0, 60000);
        wizard->accept();

        // Shrink the ext4 partition to 32 MiB with Resize/Move, measured by the helper.
        const int ext4Row = rowOfPartition(*window.partitionModel(), 1);
        window.regionSelection()->setCurrentIndex(window.partitionModel()->index(ext4Row, 0),
                                                  QItemSelectionModel::ClearAndSelect |
                                                      QItemSelectionModel::Rows);
        QAction *resize = window.editing()->action(EditingController::Action::Resize);
        QTRY_VERIFY2(resize->isEnabled(), qPrintable(resize->toolTip()));
        qint64 shownMinimum = -1;
        {
            ModalAnswers answers([&](QWidget *modal) {
                auto *d = qobject_cast<ResizePartitionDialog *>(modal);
                if (!d || !d->isMinimumKnown())
                    return;
                if (!d->minimumFromFilesystem()) {
                    d->reject(); // the helper could not measure: shownMinimum stays -1
                    return;
                }
                shownMinimum = d->minimumBytes();
                d->setSizeMiB(32);
                d->accept();
            });
            resize->trigger();
        }
        QCOMPARE(shownMinimum, minimum);
        QVERIFY2(applyPendingAndClose(window.editing(), &title, &log), qPrintable(log));
        QTRY_COMPARE_WITH_TIMEOUT(
            window.diskList()->entry(row).layout.partitionByNumber(1)->lengthSectors(), 65536,
            60000);
        // View → Refresh lists and reads this computer's disks through the helper again.
        QSignalSpy again(machines, &RemoteMachines::machineRead);
        window.findChild<QAction *>(QStringLiteral("refreshAction"))->trigger();
        QVERIFY(again.wait(120000));
        QCOMPARE(window.diskList()->entry(row).state, DiskEntry::State::Ready);
        QCOMPARE(window.diskList()->entry(row).layout.partitions().size(), 2);

        const QList<BlockDeviceOpen> opens = stopRecordingBlockDeviceOpens();
        watch.dismiss();
        QVERIFY2(opens.isEmpty(),
                 qPrintable(QStringLiteral("the window opened block devices: ") + describe(opens)));
    }

    shot.save((pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") +
               QStringLiteral("/screenshots/admin-helper-window.png")));
    // As root again: pkexec was asked once, for partwise-cli's full path (what the polkit
    // action names), and the tools see what the window said.
    QFile asked(m_dir.filePath(QStringLiteral("pkexec-asked")));
    QVERIFY(asked.open(QIODevice::ReadOnly));
    const QList<QByteArray> asks = asked.readAll().trimmed().split('\n');
    QCOMPARE(asks.size(), 1);
    QCOMPARE(asks.first(),
             QFile::encodeName(QFileInfo(pwtest::buildSetting("PARTWISE_CLI")).absoluteFilePath()) +
                 " serve");
    const SfdiskTable table = SfdiskTable::read(loop.path());
    QVERIFY2(table.ok && table.partitions.size() == 2, qPrintable(table.error));
    QCOMPARE(table.partitions.at(0).start, 2048);
    QCOMPARE(table.partitions.at(0).size, 65536); // shrunk to 32 MiB
    QCOMPARE(table.partitions.at(1).start % 2048, 0);
    QVERIFY(loop.addPartitions());
    const ToolResult blkid =
        runTool(QStringLiteral("blkid"),
                {QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                 QStringLiteral("LABEL"), loop.partitionNode(2)});
    QCOMPARE(blkid.out.trimmed(), QByteArray("USERMADE"));
    const QStringList diff = compareTrees(
        files, filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ext4"), &error));
    QVERIFY2(diff.isEmpty() && error.isEmpty(), qPrintable(diff.join(QLatin1Char(' ')) + error));
    const ToolResult fsck = checkFilesystemReadOnly(loop.partitionNode(1), QStringLiteral("ext4"));
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
}

// The real, effective, saved and filesystem users of a running process, as the kernel says
// (/proc/PID/status, "Uid:").
QList<uid_t> usersOf(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    QList<uid_t> users;
    if (!status.open(QIODevice::ReadOnly))
        return users;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("Uid:"))
            for (const QByteArray &field : line.simplified().split(' ').mid(1))
                users << uid_t(field.toUInt());
    return users;
}

void TestAdminHelper::userImageThroughOwnHelper()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // As root: the user's own image (ext4 with files at sector 63, free space after it), in a
    // folder of theirs, where its journal goes, and a data folder for the table backups.
    const QString home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(home));
    const QString image = QDir(home).filePath(QStringLiteral("mine.img"));
    QString made;
    QVERIFY2(SfdiskTable::writeImage(image, 96LL << 20,
                                     "label: dos\nstart=63, size=40960, type=83\n", &made),
             qPrintable(made));
    QString error;
    const QString tree = m_dir.filePath(QStringLiteral("mine-files"));
    QVERIFY2(makeFileTree(tree, 20, 1 << 20, 5, &error), qPrintable(error));
    QMap<QString, QByteArray> files;
    {
        LoopDevice loop(image);
        QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
        QVERIFY2(
            makeFilesystem(loop.partitionNode(1), QStringLiteral("ext4"), QString(), 63, &error) &&
                fillFilesystem(loop.partitionNode(1), QStringLiteral("ext4"), tree, &error),
            qPrintable(error));
        files = filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ext4"), &error);
        QVERIFY2(error.isEmpty() && files.size() == 21, qPrintable(error));
    }
    const ToolResult own = runTool(
        QStringLiteral("chown"),
        {QStringLiteral("-R"), QStringLiteral("%1:%2").arg(m_user.uid()).arg(m_user.gid()), home});
    QVERIFY2(own.ok(), qPrintable(own.describe()));
    qputenv("XDG_DATA_HOME", QFile::encodeName(QDir(home).filePath(QStringLiteral(".data"))));
    QPixmap shot;
    QFile asked(m_dir.filePath(QStringLiteral("pkexec-asked")));
    const QByteArray askedBefore = asked.open(QIODevice::ReadOnly) ? asked.readAll() : QByteArray();
    asked.close();

    {
        // The window's part, as the user.
        QVERIFY(becomeUser(m_user.uid(), m_user.gid()));
        auto root = qScopeGuard(becomeRootAgain);
        startRecordingBlockDeviceOpens({image});
        auto watch = qScopeGuard([] { stopRecordingBlockDeviceOpens(); });
        MainWindow window;
        RealignController *realign = installRealign(&window, window.editing());
        RemoteMachines *machines = installRemoteMachines(&window);
        realign->setHelperRealign(machines->realignThroughHelpers());
        window.openImage(image);
        const QString key = DiskListModel::machineKey(machines->imagesMachine(), image);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.diskList()->rowOf(key) >= 0 &&
                window.diskList()->entry(window.diskList()->rowOf(key)).state !=
                    DiskEntry::State::Reading,
            60000);
        const int row = window.diskList()->rowOf(key);
        QVERIFY2(window.diskList()->entry(row).state == DiskEntry::State::Ready,
                 qPrintable(window.diskList()->entry(row).error));
        QTRY_COMPARE(window.currentPath(), key);
        QCOMPARE(window.diskName(key), image); // named as any image, by its path
        QCOMPARE(window.partitionModel()->layout().partitions().first().startSector, 63);
        // Read by a helper that runs as the user, wholly: this window has root as its real
        // user (it only took the user's effective rights), and the helper must not.
        HelperConnection *helper = machines->connection(machines->imagesMachine());
        QVERIFY(helper && helper->isReady());
        QCOMPARE(usersOf(helper->processId()), QList<uid_t>(4, m_user.uid()));

        // Edit: a FAT partition in the free space, applied by that helper.
        Operation create;
        create.type = Operation::Type::Create;
        create.sizeBytes = 16LL << 20;
        create.filesystem = QStringLiteral("vfat");
        create.label = QStringLiteral("MINE");
        QString queueError;
        QVERIFY2(window.editing()->queue(create, &queueError), qPrintable(queueError));
        QString title, log;
        QSignalSpy helperSaid(helper, &HelperConnection::notification);
        QVERIFY2(applyPendingAndClose(window.editing(), &title, &log), qPrintable(log));
        // The helper wrote it (its log came), under the image's own title: the user's helper
        // is machinery, not a place ("on vm as USER").
        QVERIFY(!helperSaid.isEmpty());
        QCOMPARE(title, QStringLiteral("Apply Pending Operations"));
        QTRY_COMPARE_WITH_TIMEOUT(window.diskList()->entry(row).layout.partitions().size(), 2,
                                  60000);

        // Realign in the wizard, the helper moving the data.
        QTRY_VERIFY(realign->realignAction()->isEnabled());
        realign->realignAction()->trigger();
        RealignWizard *wizard = realign->wizard();
        QVERIFY(wizard);
        QCOMPARE(wizard->windowTitle(), QStringLiteral("Realign Partitions — %1").arg(image));
        wizard->next();
        wizard->next();
        RealignPlanPage *plan = wizard->planPage();
        QVERIFY(QTest::qWaitFor([&] { return plan->isReady(); }, 60000));
        QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
        QCOMPARE(plan->prepared().plan.moves.first().newStart, 2048);
        plan->backupConfirmation()->setChecked(true);
        wizard->next();
        QVERIFY(QTest::qWaitFor([&] { return wizard->runPage()->isFinished(); }, 300000));
        QVERIFY2(wizard->result().ok,
                 qPrintable(wizard->result().error + '\n' + wizard->runPage()->logText()));
        wizard->next();
        QVERIFY2(wizard->resultPage()->checkLines().contains(
                     QStringLiteral("partition 1 (ext4): clean")),
                 qPrintable(wizard->resultPage()->checkLines().join(QLatin1Char('\n'))));
        shot = wizard->grab(); // saved as root: the build tree is not the user's
        wizard->accept();
        QTRY_COMPARE_WITH_TIMEOUT(window.diskList()->entry(row).report.misalignedCount(), 0, 60000);

        // The user's helper killed: the image says why; View → Refresh starts it again and
        // the image is read as it is now.
        QSignalSpy lost(machines, &RemoteMachines::machineLost);
        QVERIFY(::kill(pid_t(helper->processId()), SIGKILL) == 0);
        QVERIFY(lost.wait(10000));
        QCOMPARE(window.diskList()->entry(row).state, DiskEntry::State::Failed);
        if (QMessageBox *notice = machines->deathNotice())
            notice->close();
        window.findChild<QAction *>(QStringLiteral("refreshAction"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(window.diskList()->entry(row).state, DiskEntry::State::Ready,
                                  60000);
        QCOMPARE(window.diskList()->entry(row).layout.partitionByNumber(1)->startSector, 2048);

        const QList<BlockDeviceOpen> opens = stopRecordingBlockDeviceOpens();
        watch.dismiss();
        QVERIFY2(opens.isEmpty(),
                 qPrintable(QStringLiteral("the window opened the image or a disk itself: ") +
                            describe(opens)));
    }

    shot.save((pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") +
               QStringLiteral("/screenshots/user-image-realigned.png")));
    // As root: no password was asked for the user's own image; the tools see the result.
    QVERIFY(asked.open(QIODevice::ReadOnly) || askedBefore.isEmpty());
    QCOMPARE(asked.readAll(), askedBefore);
    const SfdiskTable table = SfdiskTable::read(image);
    QVERIFY2(table.ok && table.partitions.size() == 2, qPrintable(table.error));
    QCOMPARE(table.partitions.at(0).start, 2048);
    QCOMPARE(table.partitions.at(1).start % 2048, 0);
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    const ToolResult blkid =
        runTool(QStringLiteral("blkid"),
                {QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                 QStringLiteral("LABEL"), loop.partitionNode(2)});
    QCOMPARE(blkid.out.trimmed(), QByteArray("MINE"));
    const QStringList diff = compareTrees(
        files, filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ext4"), &error));
    QVERIFY2(diff.isEmpty() && error.isEmpty(), qPrintable(diff.join(QLatin1Char(' ')) + error));
    const ToolResult fsck = checkFilesystemReadOnly(loop.partitionNode(1), QStringLiteral("ext4"));
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
}

void TestAdminHelper::watchSeesWindowRunAsRootOpenDisks()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString image = m_dir.filePath(QStringLiteral("root.img"));
    QString made;
    QVERIFY2(
        SfdiskTable::writeImage(image, 16LL << 20, "label: gpt\nstart=2048, size=8192\n", &made),
        qPrintable(made));
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    startRecordingBlockDeviceOpens();
    auto watch = qScopeGuard([] { stopRecordingBlockDeviceOpens(); });
    MainWindow window; // as root, with no helper: it reads this computer's disks itself
    window.scanDisks();
    QTRY_VERIFY_WITH_TIMEOUT(
        window.diskList()->rowOf(loop.path()) >= 0 &&
            window.diskList()->entry(window.diskList()->rowOf(loop.path())).state ==
                DiskEntry::State::Ready,
        120000);
    const QList<BlockDeviceOpen> opens = stopRecordingBlockDeviceOpens();
    watch.dismiss();
    QVERIFY2(std::any_of(opens.cbegin(), opens.cend(),
                         [&](const BlockDeviceOpen &o) {
                             return o.path == loop.path() && o.error == 0 &&
                                    o.thread.startsWith(QStringLiteral("partwise-disk"));
                         }),
             qPrintable(QStringLiteral("the watch missed the window reading %1 itself: %2")
                            .arg(loop.path(), describe(opens))));
}

QTEST_MAIN(TestAdminHelper)
