#include "realign/realigncontroller.h"

#include "editing/editingcontroller.h"
#include "editing/lastapplyundo.h"

#include "align/misalignmentreport.h"
#include "disklistmodel.h"
#include "diskmapwidget.h"
#include "editing/editingcontroller.h"
#include "journalpreferences.h"
#include "ops/writejournal.h"
#include "partitionmodel.h"
#include "realign/realignbanner.h"
#include "realign/realignwizard.h"
#include "realign/realignworker.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QBoxLayout>
#include <QFile>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>

using namespace partwise;

namespace {

// A message box over the window that deletes itself once closed; the caller adds to it and
// opens it (window-modal, so the event loop keeps running).
QMessageBox *newMessageBox(QMessageBox::Icon icon, const QString &title, const QString &text,
                           QMessageBox::StandardButtons buttons, const QString &objectName,
                           QWidget *parent)
{
    auto *box = new QMessageBox(icon, title, text, buttons, parent);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    return box;
}

} // namespace

RealignController *installRealign(MainWindow *window, EditingController *editing)
{
    return RealignController::install(window, editing);
}

RealignController *RealignController::install(MainWindow *window, EditingController *editing)
{
    return new RealignController(window, editing);
}

RealignController::RealignController(MainWindow *window, EditingController *editing)
    : QObject(window), m_window(window), m_editing(editing)
{
    setObjectName(QStringLiteral("realignController"));
    m_action = new QAction(tr("Real&ign…"), this);
    m_action->setObjectName(QStringLiteral("realignAction"));
    m_action->setToolTip(tr("Move misaligned partitions to the grain, keeping their data"));
    m_action->setShortcutContext(Qt::WindowShortcut);
    connect(m_action, &QAction::triggered, this, [this] { openWizard(true); });
    window->addAction(m_action);

    // The Edit menu when the editing half is there (after its partition actions), otherwise a
    // Disk menu of its own before View.
    if (QMenu *edit = editing ? editing->editMenu() : nullptr) {
        QAction *before = nullptr;
        const QList<QAction *> actions = edit->actions();
        for (int i = 0; i < actions.size(); ++i)
            if (actions[i]->objectName() == QLatin1String("applyAction") && i > 0 &&
                actions[i - 1]->isSeparator())
                before = actions[i - 1];
        if (before)
            edit->insertAction(before, m_action);
        else
            edit->addAction(m_action);
    } else {
        auto *menu = new QMenu(tr("&Disk"), window);
        menu->setObjectName(QStringLiteral("diskMenu"));
        menu->addAction(m_action);
        const QList<QAction *> top = window->menuBar()->actions();
        window->menuBar()->insertMenu(top.value(1), menu);
    }
    for (QWidget *widget : {static_cast<QWidget *>(window->diskMap()),
                            static_cast<QWidget *>(window->partitionView())}) {
        widget->setContextMenuPolicy(Qt::ActionsContextMenu);
        auto *separator = new QAction(this);
        separator->setSeparator(true);
        widget->addAction(separator);
        widget->addAction(m_action);
    }

    m_banner = new RealignBanner;
    if (auto *box = window->centralWidget()
                        ? qobject_cast<QBoxLayout *>(window->centralWidget()->layout())
                        : nullptr) {
        box->insertWidget(0, m_banner);
    } else {
        auto *bar = new QToolBar(tr("Realignment"), window);
        bar->setObjectName(QStringLiteral("realignToolbar"));
        bar->setMovable(false);
        bar->addWidget(m_banner);
        window->addToolBarBreak();
        window->addToolBar(bar);
    }
    connect(m_banner, &RealignBanner::realignRequested, this, [this] { openWizard(false); });
    connect(m_banner, &RealignBanner::finishRequested, this,
            [this] { finishInterrupted(m_window->currentPath()); });

    connect(window, &MainWindow::diskShown, this, &RealignController::updateState);
    connect(window->diskList(), &DiskListModel::entryChanged, this, [this](int row) {
        const DiskEntry &entry = m_window->diskList()->entry(row);
        if (entry.state != DiskEntry::State::Reading)
            checkForJournal(entry.path);
        updateState();
    });
    for (int row = 0; row < window->diskList()->rowCount(); ++row)
        if (window->diskList()->entry(row).state != DiskEntry::State::Reading)
            checkForJournal(window->diskList()->entry(row).path);
    updateState();
}

void RealignController::setHelperRealign(HelperRealign helper)
{
    m_helper = std::move(helper);
    updateState();
}

RealignOptions RealignController::options() const
{
    RealignOptions options = m_options;
    if (options.journalFolder.isEmpty())
        options.journalFolder = JournalPreferences::folder();
    return options;
}

QString RealignController::journalPathFor(const QString &target) const
{
    return options().journalPathFor(target);
}

int RealignController::unfinishedPartition(const QString &target) const
{
    WriteJournal journal;
    QString error;
    if (!WriteJournal::load(journalPathFor(target), &journal, &error))
        return 0;
    const int next = journal.nextUnfinished();
    return next >= 0 ? journal.moves.at(next).number : 0;
}

void RealignController::updateState()
{
    const QString path = m_window->currentPath();
    const std::optional<DiskLayout> layout = m_window->currentLayout();
    const bool wizardOpen = !m_wizard.isNull();
    int misaligned = 0, offGrain = 0;
    if (layout && !layout->tableType.isEmpty()) {
        const MisalignmentReport report = analyzeAlignment(*layout, m_window->alignmentPolicy());
        misaligned = report.misalignedCount();
        offGrain = report.sectorAlignedCount();
    }
    const bool helper = throughHelper(path);
    const QString journal = interruptedJournal(path);
    // A read-only disk is never offered a realignment it would only fail (it wrote nothing).
    const bool readOnly = layout && layout->device.readOnly;
    const QString cannotRealign =
        tr("This disk is read-only, so Partwise cannot realign it; Drive → Copy Disk To… "
           "writes an aligned copy of it.");
    if (wizardOpen && m_wizard->setup().target == path)
        m_banner->hideBanner(); // the wizard says it all
    else if (!journal.isEmpty() && layout)
        m_banner->showInterrupted(journal, helper ? 0 : unfinishedPartition(path));
    else if (misaligned > 0)
        m_banner->showMisaligned(misaligned, readOnly ? cannotRealign : QString());
    else
        m_banner->hideBanner();
    const QString why =
        !layout                         ? tr("Open a disk or a disk image first.")
        : wizardOpen                    ? tr("The realignment wizard is open.")
        : journal.isEmpty() && readOnly ? cannotRealign
        : journal.isEmpty() && misaligned + offGrain == 0
            ? tr("Every partition on this disk is on the grain: there is nothing to realign.")
        : helper && !m_helper.backendFor ? tr("The helper that reads this disk cannot realign it.")
                                         : QString();
    m_action->setEnabled(why.isEmpty());
    const QString tip =
        why.isEmpty() ? tr("Move misaligned partitions to the grain, keeping their data") : why;
    m_action->setToolTip(tip);
    m_action->setStatusTip(tip);
}

bool RealignController::throughHelper(const QString &path) const
{
    const int row = m_window->diskList()->rowOf(path);
    return row >= 0 && !m_window->diskList()->entry(row).machine.isEmpty();
}

QString RealignController::interruptedJournal(const QString &path) const
{
    if (path.isEmpty())
        return {};
    // A helper's disk: the journal is where the helper runs, and read-disk said whether.
    if (throughHelper(path))
        return m_helper.interruptedJournal ? m_helper.interruptedJournal(path) : QString();
    return interruptedWriteJournal(path, journalPathFor(path));
}

RealignSetup RealignController::setupFor(const QString &path) const
{
    RealignSetup setup;
    setup.target = path;
    if (const int row = m_window->diskList()->rowOf(path); row >= 0) {
        const DiskEntry &entry = m_window->diskList()->entry(row);
        setup.forcedSectorSize = entry.forcedSectorSize;
        setup.layout = entry.layout;
        if (!entry.machine.isEmpty()) {
            setup.name = m_window->diskName(path);
            setup.devicePath = entry.devicePath;
        }
    }
    setup.policy = m_window->alignmentPolicy();
    setup.options = options();
    return setup;
}

RealignBackend *RealignController::backendFor(const QString &path)
{
    if (!throughHelper(path))
        return new RealignWorker;
    RealignBackend *backend = m_helper.backendFor ? m_helper.backendFor(path) : nullptr;
    if (!backend)
        m_window->statusBar()->showMessage(
            tr("The helper that serves %1 is not running.").arg(m_window->diskName(path)));
    return backend;
}

RealignWizard *RealignController::openWizard(bool withSelection)
{
    if (m_wizard)
        return nullptr;
    const QString path = m_window->currentPath();
    const std::optional<DiskLayout> layout = m_window->currentLayout();
    if (!layout || layout->tableType.isEmpty())
        return nullptr;
    if (!interruptedJournal(path).isEmpty())
        return finishInterrupted(path);
    if (m_editing && m_editing->refuseRealignWhilePending())
        return nullptr;
    RealignSetup setup = setupFor(path);
    setup.layout = *layout;
    // The partition the context menu was opened on (or selected for the Edit menu) is chosen
    // too, even when it is only off the grain.
    const QModelIndex current = m_window->regionSelection()->currentIndex();
    if (withSelection && current.isValid() &&
        current.row() < m_window->partitionModel()->rowCount()) {
        const PartitionInfo &region = m_window->partitionModel()->region(current.row());
        if (!region.isFree() && layout->partitionByNumber(region.number))
            setup.preselect << region.number;
    }
    return showWizard(setup);
}

RealignWizard *RealignController::finishInterrupted(const QString &target)
{
    if (m_wizard)
        return nullptr;
    RealignSetup setup = setupFor(target);
    setup.resumeJournal = interruptedJournal(target);
    if (setup.resumeJournal.isEmpty())
        setup.resumeJournal = journalPathFor(target);
    return showWizard(setup);
}

RealignWizard *RealignController::showWizard(const RealignSetup &setup)
{
    RealignBackend *backend = backendFor(setup.target);
    if (!backend)
        return nullptr;
    auto *wizard = new RealignWizard(setup, backend, m_window);
    m_wizard = wizard;
    m_asked.insert(wizard->setup().target); // its journal is this wizard's business now
    connect(wizard, &RealignWizard::realignmentFinished, this,
            [this](const QString &target, bool, bool) {
                // Moved data is beyond what a table backup puts back.
                if (m_editing)
                    m_editing->lastApplyUndo()->forget(
                        target, tr("The last job on this disk was a realignment: it moved data, "
                                   "which a table backup cannot move back."));
                m_window->reread(target);
            });
    connect(wizard, &QDialog::finished, wizard, &QObject::deleteLater);
    connect(wizard, &QObject::destroyed, this, [this] {
        m_wizard = nullptr;
        updateState();
        offerNext();
    });
    wizard->setWindowModality(Qt::WindowModal);
    wizard->show();
    updateState();
    emit wizardOpened(wizard);
    return wizard;
}

// What the journal says was under way, for the offer to finish it.
QString RealignController::interruptedText(const QString &path, const WriteJournal &journal,
                                           const QString &journalPath)
{
    if (journal.isApply()) {
        const int next = journal.nextOperation;
        const QString current = next < journal.operations.size()
                                    ? journal.operations.at(next).description()
                                    : QString();
        return tr("Apply on %1 was interrupted after %2 of %3 operations, during: %4\n\nThe "
                  "journal %5 records how far it got. Finishing completes that operation and "
                  "the ones after it. Until then, the partitions it changes may not be usable. "
                  "Finish it now?")
            .arg(path)
            .arg(next)
            .arg(journal.operations.size())
            .arg(current, journalPath);
    }
    int done = 0;
    for (WriteJournal::Phase phase : std::as_const(journal.phases))
        done += phase == WriteJournal::Phase::Done ? 1 : 0;
    const int total = int(journal.moves.size());
    const QString progress =
        total == 1
            ? tr("Partition %1 had not finished moving.").arg(journal.moves.constFirst().number)
            : tr("%1 of %2 partitions were done.").arg(done).arg(total);
    return tr("A realignment of %1 was interrupted. %2\n\nThe journal %3 records how far it "
              "got. Until it is finished, the partition being moved may not be usable. Finish "
              "it now?")
        .arg(path, progress, journalPath);
}

void RealignController::checkForJournal(const QString &path)
{
    // A helper's disk with an interrupted run: the banner offers to finish it; its journal is
    // the helper's to read.
    if (path.isEmpty() || m_asked.contains(path) || throughHelper(path) ||
        !QFile::exists(journalPathFor(path)))
        return;
    if (m_wizard || m_offer) {
        if (!m_waitingOffers.contains(path))
            m_waitingOffers << path;
        return;
    }
    m_asked.insert(path);
    const QString journalPath = journalPathFor(path);
    WriteJournal journal;
    QString error;
    if (!WriteJournal::load(journalPath, &journal, &error)) {
        // A journal that does not check out is never resumed: say so, and what is left to do.
        QMessageBox *box = newMessageBox(
            QMessageBox::Warning, tr("Interrupted Work Cannot Be Finished"),
            tr("A realignment or Apply of %1 was interrupted, and its journal cannot be "
               "trusted, so Partwise will not finish it.")
                .arg(path),
            QMessageBox::Close, QStringLiteral("damagedJournalNotice"), m_window);
        box->setInformativeText(error);
        m_offer = box;
        connect(box, &QMessageBox::finished, this, [this] {
            m_offer = nullptr;
            offerNext();
        });
        box->open();
        return;
    }
    QMessageBox *box =
        newMessageBox(QMessageBox::Question,
                      journal.isApply() ? tr("Interrupted Apply") : tr("Interrupted Realignment"),
                      interruptedText(path, journal, journalPath), QMessageBox::NoButton,
                      QStringLiteral("realignResumeOffer"), m_window);
    QPushButton *finish = box->addButton(tr("&Finish Now"), QMessageBox::AcceptRole);
    finish->setObjectName(QStringLiteral("finishNowButton"));
    QPushButton *later = box->addButton(tr("&Later"), QMessageBox::RejectRole);
    later->setObjectName(QStringLiteral("laterButton"));
    box->setDefaultButton(finish);
    box->setEscapeButton(later);
    connect(box, &QMessageBox::finished, this, [this, box, finish, path] {
        const bool now = box->clickedButton() == finish;
        m_offer = nullptr;
        if (now)
            finishInterrupted(path);
        else
            offerNext();
        updateState();
    });
    m_offer = box;
    box->open();
    emit resumeOffered(path);
}

void RealignController::offerNext()
{
    while (!m_waitingOffers.isEmpty() && !m_wizard && !m_offer)
        checkForJournal(m_waitingOffers.takeFirst());
}
