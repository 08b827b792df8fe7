// Alt+letter must reach one thing. In the window as the app composes it (editing, realign, the
// sector ruler, helpers) with a disk open: inside every menu, and among the menu bar's titles and
// every widget visible in the window (docks, banner, ruler). In every dialog the window opens
// (each opened the way a person opens it, through its action), and on every page of the
// realignment wizard together with the wizard's own buttons. A clash makes the keyboard step
// between the widgets instead of choosing one.
#include "acceleratorclashes.h"
#include "buildsetting.h"
#include "copy/copycontroller.h"
#include "copy/copypages.h"
#include "copy/copywizard.h"
#include "editing/applydialog.h"
#include "editing/editingcontroller.h"
#include "guitestsupport.h"
#include "helper/remotemachines.h"
#include "mount/encryptionactions.h"
#include "mount/mountactions.h"
#include "mount/partitionmounter.h"
#include "mount/poweroffaction.h"
#include "mount/volumegroupactions.h"
#include "ops/practicedisk.h"
#include "partitionmodel.h"
#include "probe/probedialog.h"
#include "realign/realignbanner.h"
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "realign/realignwizard.h"
#include "ruler/sectorrulerpanel.h"
#include "uitranslations.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QDialog>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace partwise;

using namespace guitest;

namespace {

// The window as guimain.cpp composes it.
struct AppWindow
{
    MainWindow window;
    RealignController *realign = nullptr;
    CopyController *copy = nullptr;

    AppWindow()
    {
        realign = installRealign(&window, window.editing());
        installSectorRuler(&window);
        RemoteMachines *machines = installRemoteMachines(&window);
        realign->setHelperRealign(machines->realignThroughHelpers());
        MountActions *mount = MountActions::install(
            &window, realign, new PartitionMounter([machines](const QString &machine) {
                return machines->connection(machine);
            }));
        EncryptionActions::install(&window, mount);
        VolumeGroupActions::install(&window, mount);
        PowerOffAction::install(&window, mount);
        copy = installCopyDisk(
            &window, [machines](const QString &machine) { return machines->copyBackend(machine); },
            [machines](const QString &key) { return machines->interruptedCopy(key); });
        window.resize(1200, 800);
        window.show();
    }

    QAction *action(const char *name) const
    {
        return window.findChild<QAction *>(QString::fromLatin1(name));
    }

    // An entry of the menu bar's menus by its text, in the language shown.
    QAction *menuEntry(const char *context, const char *text) const
    {
        const QString shown = QCoreApplication::translate(context, text);
        for (QMenu *menu : window.menuBar()->findChildren<QMenu *>())
            for (QAction *a : menu->actions())
                if (a->text() == shown)
                    return a;
        return nullptr;
    }

    // Opens an image as the app does and waits until it is shown. As a user the window reads
    // images through a helper of the user's own, which files them under its name: the wait is
    // for the disk named `path`, however it is filed.
    bool open(const QString &path)
    {
        window.openImage(path);
        const QString absolute = QFileInfo(path).absoluteFilePath();
        return QTest::qWaitFor(
            [&] {
                return window.diskName(window.currentPath()) == absolute &&
                       window.currentLayout().has_value();
            },
            60000);
    }

    // Selects the region of partition `number`, or the first free region for 0.
    bool select(int number)
    {
        PartitionModel *model = window.partitionModel();
        for (int row = 0; row < model->rowCount(); ++row) {
            const PartitionInfo &region = model->region(row);
            if (number == 0 ? region.isFree() : (!region.isFree() && region.number == number)) {
                window.regionSelection()->setCurrentIndex(model->index(row, 0),
                                                          QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
                return true;
            }
        }
        return false;
    }
};

// Triggers `action` and, while the modal dialog it opens is up, records the clashes in it, then
// closes it. Returns the clashes, or a line saying no dialog came.
QStringList clashesInModal(const QString &where, QAction *action)
{
    if (!action)
        return {QStringLiteral("%1: no such action").arg(where)};
    if (!action->isEnabled())
        return {QStringLiteral("%1: the action is disabled").arg(where)};
    QStringList clashes;
    bool seen = false;
    ModalAnswers answers([&](QWidget *modal) {
        if (seen)
            return;
        seen = true;
        clashes << windowClashes(where, modal);
        if (auto *dialog = qobject_cast<QDialog *>(modal))
            dialog->reject();
        else
            modal->close();
    });
    action->trigger();
    if (!QTest::qWaitFor([&] { return seen; }, 5000))
        clashes << QStringLiteral("%1: no dialog opened").arg(where);
    return clashes;
}

bool makeDisk(const QString &path, PracticePreset preset, QString *error)
{
    PracticeDiskSpec spec;
    spec.path = path;
    spec.sizeBytes = qint64(512) << 20;
    spec.preset = preset;
    return createPracticeDisk(spec, error);
}

} // namespace

class TestAccelerators : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyMenuHasUniqueAccelerators();
    void windowHasUniqueAccelerators();
    void everyDialogHasUniqueAccelerators();
    void everyWizardPageHasUniqueAccelerators();
    void everyCopyWizardPageHasUniqueAccelerators();

private:
    QTemporaryDir m_dir;
    QString m_demo; // MBR: misaligned primaries and logicals, free space at the end
    QString m_gpt;  // GPT: partition names
};

void TestAccelerators::initTestCase()
{
    useTestSettings();
    // As a user the window reads images through `partwise-cli serve`, found on the PATH.
    qputenv("PATH", QFileInfo(pwtest::buildSetting("PARTWISE_CLI")).absolutePath().toLocal8Bit() +
                        ':' + qgetenv("PATH"));
    // The same walk in another language (ctest's gui_accelerators_de): its letters differ.
    const QString language = qEnvironmentVariable("PARTWISE_TEST_LANGUAGE");
    if (!language.isEmpty())
        QVERIFY2(UiTranslations::install(qApp, QLocale(language)), qPrintable(language));
    QVERIFY(m_dir.isValid());
    QString error;
    m_demo = m_dir.filePath(QStringLiteral("demo.img"));
    QVERIFY2(makeDisk(m_demo, PracticePreset::Demo, &error), qPrintable(error));
    m_gpt = m_dir.filePath(QStringLiteral("gpt.img"));
    QVERIFY2(makeDisk(m_gpt, PracticePreset::GptAt34, &error), qPrintable(error));
}

void TestAccelerators::everyMenuHasUniqueAccelerators()
{
    AppWindow app;
    QVERIFY(app.open(m_demo));
    const QStringList clashes =
        menuClashes(QStringLiteral("menu bar"), app.window.menuBar()->actions());
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    // Cannot pass by finding nothing: the Edit menu and its entries were walked.
    const auto *edit = app.window.findChild<QMenu *>(QStringLiteral("editMenu"));
    QVERIFY(edit && edit->actions().size() > 10);
    // And the Partition menu, New UUID and New Partition GUID with it.
    const auto *partition = app.window.findChild<QMenu *>(QStringLiteral("partitionMenu"));
    QVERIFY(partition && partition->actions().contains(app.action("newUuidAction")) &&
            partition->actions().contains(app.action("newPartitionGuidAction")));
}

void TestAccelerators::windowHasUniqueAccelerators()
{
    AppWindow app;
    QVERIFY(app.open(m_demo));
    // Everything the window can show at once: the sector ruler, the realign banner (the demo
    // disk is misaligned), the docks, a pending operation.
    auto *ruler = app.window.findChild<SectorRulerPanel *>();
    QVERIFY(ruler);
    ruler->show();
    QVERIFY(app.select(1));
    app.window.editing()->action(EditingController::Action::Delete)->trigger();
    QTest::qWait(100);
    QVERIFY(ruler->isVisible());
    QVERIFY(app.realign->banner()->isVisible());
    QStringList clashes = windowClashes(QStringLiteral("main window"), &app.window);
    // The banner's other face: an interrupted realignment to finish.
    app.realign->banner()->showInterrupted(m_dir.filePath(QStringLiteral("demo.journal")), 1);
    clashes << windowClashes(QStringLiteral("main window, interrupted"), &app.window);
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
}

void TestAccelerators::everyDialogHasUniqueAccelerators()
{
    AppWindow app;
    QStringList clashes;
    QVERIFY(app.open(m_demo));
    auto editing = [&](EditingController::Action which) {
        return app.window.editing()->action(which);
    };
    clashes << clashesInModal(QStringLiteral("New Partition Table"),
                              editing(EditingController::Action::NewTable));
    QVERIFY(app.select(0));
    clashes << clashesInModal(QStringLiteral("New Partition"),
                              editing(EditingController::Action::Create));
    QVERIFY(app.select(2)); // ext4
    clashes << clashesInModal(QStringLiteral("Resize/Move"),
                              editing(EditingController::Action::Resize));
    clashes << clashesInModal(QStringLiteral("Format"), editing(EditingController::Action::Format));
    clashes << clashesInModal(QStringLiteral("Filesystem Label"),
                              editing(EditingController::Action::SetLabel));
    clashes << clashesInModal(QStringLiteral("Flags"), editing(EditingController::Action::Flags));
    clashes << clashesInModal(QStringLiteral("Check Filesystem"),
                              editing(EditingController::Action::Check));
    clashes << clashesInModal(QStringLiteral("Preferences"), app.action("preferencesAction"));
    clashes << clashesInModal(QStringLiteral("New Practice Disk"),
                              app.menuEntry("MainWindow", "&New Practice Disk…"));
    clashes << clashesInModal(QStringLiteral("Filesystem Support"),
                              app.action("filesystemSupportAction"));
    clashes << clashesInModal(QStringLiteral("Connect to Machine"), app.action("connectAction"));

    // Partition names are GPT's.
    QVERIFY(app.open(m_gpt));
    QVERIFY(app.select(1));
    clashes << clashesInModal(QStringLiteral("Partition Name"),
                              editing(EditingController::Action::SetName));

    // Apply runs what it is given as soon as it is executed; shown, it waits.
    Operation deletion;
    deletion.type = Operation::Type::Delete;
    deletion.number = 1;
    ApplyDialog apply(m_gpt, {deletion}, ApplyOptions(), &app.window);
    apply.show();
    QVERIFY(QTest::qWaitForWindowExposed(&apply));
    clashes << windowClashes(QStringLiteral("Apply"), &apply);
    apply.close();

    // Measuring is offered for drives, not images; the dialog is the same for any path, and
    // it writes nothing before Measure is pressed.
    ProbeDialog probe(m_gpt, &app.window);
    probe.show();
    QVERIFY(QTest::qWaitForWindowExposed(&probe));
    clashes << windowClashes(QStringLiteral("Measure Physical Sector"), &probe);
    probe.close();

    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
}

void TestAccelerators::everyWizardPageHasUniqueAccelerators()
{
    // A copy: the wizard realigns it.
    const QString image = m_dir.filePath(QStringLiteral("realign.img"));
    QVERIFY(QFile::copy(m_demo, image));
    AppWindow app;
    RealignOptions options;
    options.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    app.realign->setDefaultOptions(options);
    QVERIFY(app.open(image));
    app.realign->realignAction()->trigger();
    RealignWizard *wizard = app.realign->wizard();
    QVERIFY(wizard);
    QVERIFY(QTest::qWaitForWindowExposed(wizard));
    QStringList clashes;
    QStringList pages;
    auto walk = [&] {
        QTest::qWait(50);
        pages << wizard->currentPage()->objectName();
        clashes << windowClashes(wizard->currentPage()->objectName(), wizard);
    };
    walk(); // intro
    wizard->next();
    walk(); // choose
    wizard->next();
    QVERIFY(QTest::qWaitFor([&] { return wizard->planPage()->isReady(); }, 60000));
    walk(); // plan
    wizard->planPage()->backupConfirmation()->setChecked(true);
    walk(); // plan, Realign enabled
    wizard->next();
    walk(); // run, while it runs
    QVERIFY(QTest::qWaitFor([&] { return wizard->runPage()->isFinished(); }, 300000));
    walk(); // run, done
    wizard->next();
    walk(); // result
    QCOMPARE(pages,
             (QStringList{QStringLiteral("realignIntroPage"), QStringLiteral("realignChoosePage"),
                          QStringLiteral("realignPlanPage"), QStringLiteral("realignPlanPage"),
                          QStringLiteral("realignRunPage"), QStringLiteral("realignRunPage"),
                          QStringLiteral("realignResultPage")}));
    clashes.removeDuplicates();
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    wizard->accept();
}

void TestAccelerators::everyCopyWizardPageHasUniqueAccelerators()
{
    // The demo disk copied into a new image, every page looked at on the way.
    AppWindow app;
    QVERIFY(app.open(m_demo));
    app.copy->action()->trigger();
    CopyWizard *wizard = app.copy->wizard();
    QVERIFY(wizard);
    QVERIFY(QTest::qWaitForWindowExposed(wizard));
    QStringList clashes, pages;
    auto walk = [&] {
        QTest::qWait(50);
        pages << wizard->currentPage()->objectName();
        clashes << windowClashes(wizard->currentPage()->objectName(), wizard);
    };
    wizard->findChild<QAbstractButton *>(QStringLiteral("copyToImage"))->click();
    wizard->findChild<QLineEdit *>(QStringLiteral("copyImagePath"))
        ->setText(m_dir.filePath(
            QStringLiteral("copy-%1.img").arg(qEnvironmentVariable("PARTWISE_TEST_LANGUAGE"))));
    walk(); // target
    wizard->next();
    wizard->findChild<QAbstractButton *>(QStringLiteral("copyBeside"))->click();
    walk(); // options
    wizard->next();
    QVERIFY(QTest::qWaitFor(
        [&] { return wizard->planPage()->partitionTable()->topLevelItemCount() > 0; }, 60000));
    wizard->findChild<QAbstractButton *>(QStringLiteral("copyConfirm"))->click();
    walk(); // plan, Copy enabled
    QVERIFY(wizard->planPage()->isComplete());
    wizard->next();
    QVERIFY(
        QTest::qWaitFor([&] { return wizard->currentId() == CopyWizard::ResultPageId; }, 300000));
    walk(); // result
    QVERIFY2(wizard->result().ok, qPrintable(wizard->resultPage()->summary()));
    QCOMPARE(pages,
             (QStringList{QStringLiteral("copyTargetPage"), QStringLiteral("copyOptionsPage"),
                          QStringLiteral("copyPlanPage"), QStringLiteral("copyResultPage")}));
    clashes.removeDuplicates();
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    wizard->accept();
}

QTEST_MAIN(TestAccelerators)
#include "tst_accelerators.moc"
