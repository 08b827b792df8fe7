// The Copy Disk wizard as a person uses it: the window runs as a user the test creates (its
// effective rights only, as in gui_adminhelper), opens the user's Windows XP practice disk
// through the user's own helper, and copies it onto a new, larger image. Independent tools then
// check the copy: sfdisk finds every partition on the 1 MiB grain, and every file of every
// partition has the bytes it had (each filesystem's own check included). The copy is kept
// beside its source: the new ids the plan page showed are the ones sfdisk -J and blkid read.
#include "buildsetting.h"
#include "copy/copycontroller.h"
#include "copy/copypages.h"
#include "copy/copywizard.h"
#include "disklistmodel.h"
#include "helper/helperconnection.h"
#include "helper/remotemachines.h"
#include "ops/copyrunner.h"
#include "window/mainwindow.h"

#include "blkidprobe.h"
#include "clirun.h"
#include "fuseaccess.h"
#include "guitestsupport.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "testuser.h"
#include "toolrun.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <atomic>

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace guitest;
using namespace pwtest;

namespace {

constexpr char kUser[] = "partwise-copy-test";

bool becomeUser(uid_t uid, gid_t gid)
{
    return ::setgroups(0, nullptr) == 0 && ::setegid(gid) == 0 && ::seteuid(uid) == 0;
}

void becomeRootAgain()
{
    if (::seteuid(0) != 0 || ::setegid(0) != 0)
        qFatal("could not take root back");
    const gid_t rootGroup = 0;
    ::setgroups(1, &rootGroup);
}

template <typename T> T *child(QWidget *parent, const char *name)
{
    return parent->findChild<T *>(QLatin1String(name));
}

} // namespace

class TestCopyWizard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void xpDiskCopiedOntoALargerImageAsUser();
    void interruptedCopyFinishedFromTheWindow();
    void demoCopyIsSuggestedWhereItStays();

private:
    QTemporaryDir m_dir;
    TestUser m_user;
};

void TestCopyWizard::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_user.create(QString::fromLatin1(kUser), QStringLiteral("/usr/sbin/nologin")),
             qPrintable(m_user.error()));
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
    // The user's helper is the partwise-cli on PATH, as when installed.
    const QString cliFolder = QFileInfo(pwtest::buildSetting("PARTWISE_CLI")).absolutePath();
    qputenv("PATH", (cliFolder + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());
}

void TestCopyWizard::cleanupTestCase()
{
    m_user.remove();
}

void TestCopyWizard::xpDiskCopiedOntoALargerImageAsUser()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // As on a Debian desktop: a user's helper gives an NTFS its new id through FUSE.
    const FuseOpenToUsers fuse;
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    // As root: the practice disk in a folder of the user's, and what every partition holds.
    const QString home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(home));
    const QString image = QDir(home).filePath(QStringLiteral("xp.img"));
    const QString copy = QDir(home).filePath(QStringLiteral("new-ssd.img"));
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("windows-xp"), image,
                                   QStringLiteral("--size"), QStringLiteral("128M")});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
    const SfdiskTable before = SfdiskTable::read(image);
    QVERIFY2(before.ok && !before.partitions.isEmpty(), qPrintable(before.error));
    QCOMPARE(before.partitions.first().start, 63);
    QStringList problems;
    const QMap<int, PartitionContents> contents = partitionContents(image, 512, before, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QVERIFY(!contents.isEmpty() && !contents.first().files.isEmpty());
    const ToolResult own = runTool(
        QStringLiteral("chown"),
        {QStringLiteral("-R"), QStringLiteral("%1:%2").arg(m_user.uid()).arg(m_user.gid()), home});
    QVERIFY2(own.ok(), qPrintable(own.describe()));
    qputenv("XDG_DATA_HOME", QFile::encodeName(QDir(home).filePath(QStringLiteral(".data"))));

    QString summary, checks, shownPlan;
    QPixmap planShot, resultShot, refusedShot;
    bool wizardOk = false;
    {
        // The window's part, as the user.
        QVERIFY(becomeUser(m_user.uid(), m_user.gid()));
        auto root = qScopeGuard(becomeRootAgain);
        MainWindow window;
        RemoteMachines *machines = installRemoteMachines(&window);
        CopyController *copyDisk = installCopyDisk(
            &window, [machines](const QString &machine) { return machines->copyBackend(machine); },
            [machines](const QString &key) { return machines->interruptedCopy(key); });
        window.openImage(image);
        const QString key = DiskListModel::machineKey(machines->imagesMachine(), image);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.diskList()->rowOf(key) >= 0 &&
                window.diskList()->entry(window.diskList()->rowOf(key)).state ==
                    DiskEntry::State::Ready,
            60000);
        QTRY_COMPARE(window.currentPath(), key);
        HelperConnection *helper = machines->connection(machines->imagesMachine());
        QVERIFY(helper && helper->isReady());

        // Drive → Copy Disk To…
        QTRY_VERIFY(copyDisk->action()->isEnabled());
        copyDisk->action()->trigger();
        CopyWizard *wizard = copyDisk->wizard();
        QVERIFY(wizard);
        QCOMPARE(wizard->windowTitle(), QStringLiteral("Copy Disk — %1").arg(image));
        // First a target too small for the data: the plan says why, in red, and starts nothing.
        child<QRadioButton>(wizard, "copyToImage")->click();
        child<QLineEdit>(wizard, "copyImagePath")
            ->setText(QDir(home).filePath(QStringLiteral("too-small.img")));
        child<QDoubleSpinBox>(wizard, "copyImageSize")->setValue(0.01); // 10 MiB
        wizard->next();
        QCOMPARE(wizard->currentId(), int(CopyWizard::OptionsPageId));
        QVERIFY(!wizard->currentPage()->isComplete()); // beside or instead: asked, never assumed
        child<QRadioButton>(wizard, "copyReplaces")->click();
        wizard->next();
        CopyPlanPage *plan = wizard->planPage();
        QVERIFY(QTest::qWaitFor(
            [&] { return plan->planText().contains(QStringLiteral("This copy cannot run")); },
            60000));
        QVERIFY2(plan->planText().contains(QStringLiteral("more than the target has")),
                 qPrintable(plan->planText()));
        QVERIFY(!child<QCheckBox>(wizard, "copyConfirm")->isEnabled());
        QVERIFY(!plan->isComplete());
        QTest::qWait(50);
        refusedShot = wizard->grab();
        wizard->back();
        wizard->back();
        QCOMPARE(wizard->currentId(), int(CopyWizard::TargetPageId));

        child<QLineEdit>(wizard, "copyImagePath")->setText(copy);
        child<QDoubleSpinBox>(wizard, "copyImageSize")->setValue(0.25); // 256 MiB
        wizard->next();
        QCOMPARE(wizard->currentId(), int(CopyWizard::OptionsPageId));
        // Sizes kept (the default): growing NTFS is the core suites' business.
        QVERIFY(child<QRadioButton>(wizard, "copyKeepSizes")->isChecked());
        // Kept beside its source: new ids, which the plan names and the copy must then have.
        child<QRadioButton>(wizard, "copyBeside")->click();
        QVERIFY(wizard->currentPage()->isComplete());
        wizard->next();

        // The plan, as the user's helper made it.
        QTreeWidget *table = plan->partitionTable();
        QVERIFY(QTest::qWaitFor([&] { return table->topLevelItemCount() > 0; }, 60000));
        QCOMPARE(table->topLevelItemCount(), before.partitions.size());
        for (int i = 0; i < table->topLevelItemCount(); ++i)
            QCOMPARE(table->topLevelItem(i)->data(3, Qt::UserRole).toLongLong() % 2048, 0);
        // Back to the options and on again: planned anew, the image made only once.
        wizard->back();
        QCOMPARE(wizard->currentId(), int(CopyWizard::OptionsPageId));
        wizard->next();
        QCOMPARE(table->topLevelItemCount(), 0);
        QVERIFY(QTest::qWaitFor([&] { return table->topLevelItemCount() > 0; }, 60000));
        QVERIFY(!plan->isComplete()); // the person's yes first
        QVERIFY2(plan->planText().contains(QStringLiteral("to copy")),
                 qPrintable(plan->planText()));
        QVERIFY(QFileInfo(copy).exists());
        QCOMPARE(QFileInfo(copy).size(), 256LL << 20);
        QTest::qWait(50);
        planShot = wizard->grab(); // saved as root: the build tree is not the user's
        shownPlan = plan->planText();
        child<QCheckBox>(wizard, "copyConfirm")->click();
        QVERIFY(plan->isComplete());
        wizard->next();

        // The copy, then its result.
        QVERIFY(QTest::qWaitFor([&] { return wizard->currentId() == CopyWizard::ResultPageId; },
                                300000));
        summary = wizard->resultPage()->summary();
        checks = child<QPlainTextEdit>(wizard, "copyChecks")->toPlainText();
        QTest::qWait(50);
        resultShot = wizard->grab();
        wizardOk = wizard->result().ok;
        QVERIFY2(wizardOk, qPrintable(summary));
        // The window shows the new image, read by the user's helper.
        const QString copyKey = DiskListModel::machineKey(machines->imagesMachine(), copy);
        QTRY_VERIFY_WITH_TIMEOUT(window.diskList()->rowOf(copyKey) >= 0, 30000);
        wizard->accept();
    }

    const QDir shots(
        (pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") + QStringLiteral("/screenshots")));
    shots.mkpath(QStringLiteral("."));
    QVERIFY(planShot.save(shots.filePath(QStringLiteral("copy-plan.png"))));
    QVERIFY(resultShot.save(shots.filePath(QStringLiteral("copy-result.png"))));
    QVERIFY(refusedShot.save(shots.filePath(QStringLiteral("copy-refused.png"))));
    QVERIFY2(wizardOk, qPrintable(summary));

    // As root, with independent tools: the copy is the user's file, every partition starts on
    // the 1 MiB grain with its size kept, and every file is there.
    QVERIFY2(checks.contains(QStringLiteral("clean")), qPrintable(checks));
    struct stat st;
    QVERIFY(::stat(QFile::encodeName(copy).constData(), &st) == 0);
    QCOMPARE(st.st_uid, m_user.uid());
    const SfdiskTable after = SfdiskTable::read(copy);
    QVERIFY2(after.ok, qPrintable(after.error));
    QCOMPARE(after.partitions.size(), before.partitions.size());
    for (const SfdiskPartition &p : after.partitions)
        QVERIFY2(p.start % 2048 == 0, qPrintable(QString::number(p.start)));
    for (int i = 0; i < after.partitions.size(); ++i)
        QCOMPARE(after.partitions[i].size, before.partitions[i].size);
    const QMap<int, PartitionContents> copied = partitionContents(copy, 512, after, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    const QStringList differ = contentsDiffer(contents, copied);
    QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));

    // The ids the plan page showed are the ids sfdisk -J and blkid read on the copy.
    const QRegularExpression diskId(QStringLiteral("ids: the disk gets id ([0-9a-f]{8})"));
    const QRegularExpressionMatch shownDisk = diskId.match(shownPlan);
    QVERIFY2(shownDisk.hasMatch(), qPrintable(shownPlan));
    const QJsonObject table =
        QJsonDocument::fromJson(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), copy}).out)
            .object()
            .value(QStringLiteral("partitiontable"))
            .toObject();
    QCOMPARE(table.value(QStringLiteral("id")).toString(),
             QStringLiteral("0x") + shownDisk.captured(1));
    int compared = 0;
    for (int i = 0; i < after.partitions.size(); ++i) {
        const SfdiskPartition &p = after.partitions.at(i);
        const QString uuid = blkidProbe(copy, p.start * 512).uuid;
        if (uuid.isEmpty())
            continue; // the extended partition
        // "ids: partition N gets PARTUUID <disk id>-0N and filesystem UUID <uuid>"
        const QRegularExpression shownIds(
            QStringLiteral("ids: partition %1 gets PARTUUID %2-%3 and filesystem UUID (\\S+)")
                .arg(p.number)
                .arg(shownDisk.captured(1))
                .arg(p.number, 2, 10, QLatin1Char('0')));
        QCOMPARE(shownIds.match(shownPlan).captured(1), uuid);
        QVERIFY(uuid != blkidProbe(image, before.partitions.at(i).start * 512).uuid);
        ++compared;
    }
    QCOMPARE(compared, contents.size());
}

// A copy cancelled part-way leaves its target with no table and a journal. Opened in the window
// as the user, the disk asks to finish it; Finish Now finishes it through the user's helper, and
// sfdisk then finds every partition on the grain with every file there.
void TestCopyWizard::interruptedCopyFinishedFromTheWindow()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString home = m_dir.filePath(QStringLiteral("resume-home"));
    QVERIFY(QDir().mkpath(home));
    const QString image = QDir(home).filePath(QStringLiteral("old.img"));
    const QString target = QDir(home).filePath(QStringLiteral("stopped.img"));
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(runCli({QStringLiteral("practice"), QStringLiteral("old-fdisk"), image,
                    QStringLiteral("--size"), QStringLiteral("128M")})
                .exitCode == 0);
    QFile t(target);
    QVERIFY(t.open(QIODevice::WriteOnly) && t.resize(160 << 20));
    t.close();
    partwise::CopyOptions options;
    options.backupRoot = QDir(home).filePath(QStringLiteral("backups"));
    const partwise::PreparedCopy prepared = partwise::prepareCopy(image, target, options);
    QVERIFY2(prepared.ok && prepared.plan.ok(), qPrintable(prepared.error));
    std::atomic<bool> cancel{false};
    partwise::CopyCallbacks cancelAtOnce;
    cancelAtOnce.cancel = &cancel;
    cancelAtOnce.progress = [&](const partwise::CopyProgress &) { cancel = true; };
    const partwise::CopyResult stopped = partwise::runCopy(prepared, options, cancelAtOnce);
    QVERIFY2(!stopped.ok && stopped.resumable, qPrintable(stopped.error));
    QVERIFY(!SfdiskTable::read(target).ok);
    const ToolResult own = runTool(
        QStringLiteral("chown"),
        {QStringLiteral("-R"), QStringLiteral("%1:%2").arg(m_user.uid()).arg(m_user.gid()), home});
    QVERIFY2(own.ok(), qPrintable(own.describe()));

    QString summary;
    bool finished = false;
    {
        QVERIFY(becomeUser(m_user.uid(), m_user.gid()));
        auto root = qScopeGuard(becomeRootAgain);
        MainWindow window;
        RemoteMachines *machines = installRemoteMachines(&window);
        CopyController *copyDisk = installCopyDisk(
            &window, [machines](const QString &machine) { return machines->copyBackend(machine); },
            [machines](const QString &key) { return machines->interruptedCopy(key); });
        window.openImage(target);
        QMessageBox *offer = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&] {
                return (offer = window.findChild<QMessageBox *>(
                            QStringLiteral("copyResumeOffer"))) != nullptr;
            },
            60000));
        QVERIFY(copyDisk->finishAction()->isEnabled());
        QVERIFY(offer->text().contains(QStringLiteral("holds no partition table")));
        offer->findChild<QAbstractButton *>(QStringLiteral("finishNowButton"))->click();
        CopyWizard *wizard = copyDisk->wizard();
        QVERIFY(wizard);
        QVERIFY(QTest::qWaitFor([&] { return wizard->currentId() == CopyWizard::ResultPageId; },
                                300000));
        summary = wizard->resultPage()->summary();
        finished = wizard->result().ok;
        wizard->accept();
        // Read again by the helper: nothing is left to finish.
        QTRY_VERIFY_WITH_TIMEOUT(!copyDisk->finishAction()->isEnabled(), 30000);
    }
    QVERIFY2(finished, qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("is finished")), qPrintable(summary));
    QVERIFY(!partwise::copyJournalExists(target));
    const SfdiskTable before = SfdiskTable::read(image);
    const SfdiskTable after = SfdiskTable::read(target);
    QVERIFY2(after.ok, qPrintable(after.error));
    QCOMPARE(after.partitions.size(), before.partitions.size());
    for (const SfdiskPartition &p : after.partitions)
        QVERIFY2(p.start % 2048 == 0, qPrintable(QString::number(p.start)));
    QStringList problems;
    const auto was = partitionContents(image, 512, before, &problems);
    const auto is = partitionContents(target, 512, after, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    const QStringList differ = contentsDiffer(was, is);
    QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
}

void TestCopyWizard::demoCopyIsSuggestedWhereItStays()
{
    // The demo disk lives in a temporary folder Partwise deletes when it quits: a copy suggested
    // beside it would go with it.
    QTemporaryDir demo;
    QVERIFY(demo.isValid());
    MainWindow window;
    CopyController *copyDisk = installCopyDisk(&window, {}, {});
    window.openDemoDisk(demo.path());
    QTRY_VERIFY_WITH_TIMEOUT(copyDisk->action()->isEnabled(), 60000);
    QVERIFY(window.currentPath().startsWith(demo.path()));
    copyDisk->action()->trigger();
    CopyWizard *wizard = copyDisk->wizard();
    QVERIFY(wizard);
    const QString suggested = child<QLineEdit>(wizard, "copyImagePath")->text();
    const QString temp = QDir(QDir::tempPath()).canonicalPath();
    const QFileInfo folder(QFileInfo(suggested).absolutePath());
    QVERIFY2(!folder.canonicalFilePath().startsWith(temp), qPrintable(suggested));
    QVERIFY2(folder.isDir() && folder.isWritable(), qPrintable(suggested));
    wizard->reject();
}

QTEST_MAIN(TestCopyWizard)
#include "tst_copywizard.moc"
