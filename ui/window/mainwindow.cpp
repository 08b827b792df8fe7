#include "window/mainwindow.h"

#include "filesystemsupportdialog.h"

#include "alignmentpreferences.h"
#include "base/humansize.h"
#include "disabledactionhints.h"
#include "disklistmodel.h"
#include "diskmapwidget.h"
#include "diskservice.h"
#include "infopanel.h"
#include "journalpreferences.h"
#include "partitionmodel.h"
#include "pictureexporter.h"
#include "preferencesdialog.h"
#include "probe/probedialog.h"
#include "screenfit.h"
#include "selectionbridge.h"
#include "uiresources.h"
#include "version.h"
#include "window/mainwindowediting.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

using namespace partwise;

namespace {

// The platform's key for a standard action, or `fallback` where the platform has none
// (Preferences has no key on X11 or Windows, Quit none on Windows).
void setStandardShortcut(QAction *action, QKeySequence::StandardKey key,
                         const QKeySequence &fallback)
{
    const QList<QKeySequence> keys = QKeySequence::keyBindings(key);
    action->setShortcuts(keys.isEmpty() ? QList<QKeySequence>{fallback} : keys);
}

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Partwise"));
    ensureUiResources();
    setWindowIcon(QIcon(QStringLiteral(":/partwise/icons/org.partwise.Partwise.svg")));
    setObjectName(QStringLiteral("mainWindow"));
    m_service = new DiskService(this);
    m_disks = new DiskListModel(this);
    m_disks->setPolicy(AlignmentPreferences::load());
    m_partitions = new PartitionModel(this);
    m_selection = new QItemSelectionModel(m_partitions, this);

    createCentralArea();
    createActions();
    // Edit menu, pending-operations dock, the queue previewed on the map.
    m_editing = installEditing(this);
    // The info panel has the most to say; the queue below it needs its buttons and a few rows.
    if (auto *pending = findChild<QDockWidget *>(QStringLiteral("pendingOperationsDock")))
        resizeDocks({m_info, pending}, {500, 170}, Qt::Vertical);

    connect(m_service, &DiskService::disksListed, this, [this](const QStringList &paths) {
        m_disks->setDisks(paths);
        for (const QString &path : paths) {
            m_disks->markReading(m_disks->rowOf(path));
            m_service->read(path);
        }
        if (m_disks->rowCount() == 0)
            m_map->setMessage(tr("No disks found. Open a disk image (File → Open Disk "
                                 "Image…) or create a practice disk to explore."));
    });
    connect(m_service, &DiskService::diskRead, this, &MainWindow::onDiskRead);
    connect(m_service, &DiskService::imageCreated, this, &MainWindow::onImageCreated);
    connect(m_disks, &DiskListModel::entryChanged, this, [this](int row) {
        if (row == m_chooser->currentIndex())
            showEntry(row);
    });
    connect(m_chooser, &QComboBox::currentIndexChanged, this, &MainWindow::showChosenDisk);
    m_map->setMessage(tr("Looking for disks…"));
    updateStatus(-1);
    // 1200×740 where the screen has room; a netbook's or a VM's 800×600 gets all it has.
    resize(sizeWithinScreen(this, QSize(1200, 740)));
}

MainWindow::~MainWindow() = default;

void MainWindow::createCentralArea()
{
    auto *toolbar = m_toolbar = addToolBar(tr("Disk"));
    toolbar->setObjectName(QStringLiteral("diskToolbar"));
    toolbar->setMovable(false);
    auto *chooserLabel = new QLabel(tr("&Disk:"));
    m_chooser = new QComboBox;
    m_chooser->setObjectName(QStringLiteral("deviceChooser"));
    m_chooser->setModel(m_disks);
    // Entries grow as disks are read, so size for a typical "name — size — sectors" line.
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_chooser->setMinimumContentsLength(64);
    m_chooser->setAccessibleName(tr("Disk"));
    chooserLabel->setBuddy(m_chooser);
    toolbar->addWidget(chooserLabel);
    toolbar->addWidget(m_chooser);

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    m_map = new DiskMapWidget;
    m_map->setObjectName(QStringLiteral("diskMap"));
    m_map->setModel(m_partitions, m_selection);
    layout->addWidget(m_map);

    m_sorted = new QSortFilterProxyModel(this);
    m_sorted->setSourceModel(m_partitions);
    m_sorted->setSortRole(PartitionModel::SortRole);
    m_list = new QTreeView;
    m_list->setObjectName(QStringLiteral("partitionList"));
    m_list->setAccessibleName(tr("Partitions"));
    m_list->setModel(m_sorted);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setSortingEnabled(true);
    m_list->sortByColumn(PartitionModel::PartitionColumn, Qt::AscendingOrder);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    new SelectionBridge(m_sorted, m_list->selectionModel(), m_selection, this);
    layout->addWidget(m_list, 1);
    setCentralWidget(central);
    setTabOrder(m_chooser, m_map);
    setTabOrder(m_map, m_list);

    m_info = new InfoPanel(this);
    m_info->setModel(m_partitions, m_selection);
    addDockWidget(Qt::RightDockWidgetArea, m_info);
    resizeDocks({m_info}, {380}, Qt::Horizontal);

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("alignmentStatus"));
    statusBar()->addWidget(m_status, 1);
    new DisabledActionHints(this); // greyed menu items say why in the status bar
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Disk Image…"), this, &MainWindow::chooseImage);
    open->setObjectName(QStringLiteral("openAction"));
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("&New Practice Disk…"), this, &MainWindow::choosePracticeDisk)
        ->setShortcut(QKeySequence::New);
    QAction *exportMap = file->addAction(tr("&Export Map…"), this, &MainWindow::chooseExportFile);
    exportMap->setObjectName(QStringLiteral("exportAction"));
    exportMap->setShortcut(QKeySequence(tr("Ctrl+E")));
    m_fileMenu = file;
    m_fileSeparator = file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setObjectName(QStringLiteral("quitAction"));
    setStandardShortcut(quit, QKeySequence::Quit, QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *refreshAction = view->addAction(tr("&Refresh"), this, &MainWindow::refresh);
    refreshAction->setObjectName(QStringLiteral("refreshAction"));
    setStandardShortcut(refreshAction, QKeySequence::Refresh, QKeySequence(Qt::Key_F5));
    view->addAction(m_info->toggleViewAction());

    QMenu *drive = menuBar()->addMenu(tr("D&rive"));
    drive->setObjectName(QStringLiteral("driveMenu"));
    QAction *measure =
        drive->addAction(tr("Measure Physical &Sector…"), this, &MainWindow::measureSector);
    measure->setObjectName(QStringLiteral("measureSectorAction"));
    measure->setToolTip(tr("Time writes to find the drive's real physical sector size"));
    m_measureAction = measure;

    QMenu *settings = menuBar()->addMenu(tr("&Settings"));
    QAction *preferences =
        settings->addAction(tr("&Preferences…"), this, &MainWindow::editPreferences);
    preferences->setObjectName(QStringLiteral("preferencesAction"));
    setStandardShortcut(preferences, QKeySequence::Preferences,
                        QKeySequence(Qt::CTRL | Qt::Key_Comma));
    preferences->setMenuRole(QAction::PreferencesRole);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *support = help->addAction(tr("&Filesystem Support"), this, [this] {
        FilesystemSupportDialog dialog(this);
        dialog.exec();
    });
    support->setObjectName(QStringLiteral("filesystemSupportAction"));
    help->addAction(tr("&About Partwise"), this, &MainWindow::showAbout);

    m_toolbar->addAction(refreshAction);
    m_toolbar->addAction(open);
}

void MainWindow::refresh()
{
    for (int row = 0; row < m_disks->rowCount(); ++row) {
        if (m_disks->entry(row).isImage)
            reread(m_disks->entry(row).path); // here, or by the helper that reads it
    }
    scanDisks();
}

void MainWindow::scanDisks()
{
    if (m_scanSystemDisks) {
        m_scanSystemDisks();
        return;
    }
    // Disks are read once the list is back, so unplugged ones disappear first.
    m_service->listDisks();
}

void MainWindow::setAlignmentPolicy(const AlignmentPolicy &policy)
{
    AlignmentPreferences::save(policy);
    m_disks->setPolicy(policy);
}

AlignmentPolicy MainWindow::alignmentPolicy() const
{
    return m_disks->policy();
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::onDiskRead(const QString &path, const DiskReadResult &result,
                            const std::optional<BootInventory> &boot, const QString &identity,
                            const QString &shape)
{
    m_shapes.insert(path, shape);
    m_disks->setResult(path, result, boot, identity);
}

void MainWindow::showChosenDisk()
{
    m_shownGeneration = -1; // a different disk: always a full reset
    showEntry(m_chooser->currentIndex());
}

void MainWindow::showEntry(int row)
{
    if (row < 0 || row >= m_disks->rowCount()) {
        m_shownPath.clear();
        m_partitions->clear();
        updateStatus(-1);
        return;
    }
    const DiskEntry &entry = m_disks->entry(row);
    const bool sameLayout = entry.path == m_shownPath && entry.generation == m_shownGeneration;
    m_shownPath = entry.path;
    m_shownGeneration = entry.generation;
    updateMeasureAction(entry);
    setWindowTitle(entry.layout.device.readOnly
                       ? tr("%1 (read-only) — Partwise").arg(DiskListModel::nameOf(entry))
                       : tr("%1 — Partwise").arg(DiskListModel::nameOf(entry)));
    switch (entry.state) {
    case DiskEntry::State::Reading:
        m_partitions->clear();
        m_map->setMessage(tr("Reading %1…").arg(DiskListModel::nameOf(entry)));
        break;
    case DiskEntry::State::Failed:
        m_partitions->clear();
        m_map->setMessage(readError(entry));
        break;
    case DiskEntry::State::Ready:
        if (sameLayout && m_partitions->hasDisk()) {
            // A policy change: judge what is on screen (the disk as read, or a preview of
            // pending edits) again, keeping rows and selection.
            m_partitions->setReport(analyzeAlignment(m_partitions->layout(), m_disks->policy()));
        } else {
            m_partitions->setBoot(entry.boot, entry.layout);
            m_partitions->setDisk(entry.layout, entry.report);
            selectFirstInterestingRegion();
        }
        m_map->setMessage(entry.layout.regions.isEmpty()
                              ? tr("%1 has no partition table.").arg(DiskListModel::nameOf(entry))
                              : QString());
        break;
    }
    updateStatus(row);
    if (entry.state != DiskEntry::State::Reading)
        emit diskShown(entry.path);
}

QString MainWindow::notEditableReason() const
{
    const int row = m_disks->rowOf(m_shownPath);
    if (row < 0 || m_disks->entry(row).state != DiskEntry::State::Failed)
        return QString();
    return readError(m_disks->entry(row));
}

void MainWindow::addFileAction(QAction *action)
{
    m_fileMenu->insertAction(m_fileSeparator, action);
}

std::optional<DiskLayout> MainWindow::currentLayout() const
{
    const int row = m_disks->rowOf(m_shownPath);
    if (row < 0 || m_disks->entry(row).state != DiskEntry::State::Ready)
        return std::nullopt;
    return m_disks->entry(row).layout;
}

std::optional<BootInventory> MainWindow::currentBoot() const
{
    const int row = m_disks->rowOf(m_shownPath);
    if (row < 0 || m_disks->entry(row).state != DiskEntry::State::Ready)
        return std::nullopt;
    return m_disks->entry(row).boot;
}

void MainWindow::showLayout(const DiskLayout &layout)
{
    // Keep the selection on the region starting at the same sector, if there still is one.
    const QModelIndex current = m_selection->currentIndex();
    const qint64 selectedStart =
        current.isValid() ? m_partitions->region(current.row()).startSector : -1;
    m_partitions->setDisk(layout, analyzeAlignment(layout, m_disks->policy()));
    int reselect = -1;
    for (int row = 0; row < m_partitions->rowCount() && reselect < 0; ++row) {
        if (m_partitions->region(row).startSector == selectedStart)
            reselect = row;
    }
    if (reselect >= 0)
        m_selection->setCurrentIndex(m_partitions->index(reselect, 0),
                                     QItemSelectionModel::ClearAndSelect |
                                         QItemSelectionModel::Rows);
    else
        selectFirstInterestingRegion();
    m_map->setMessage(QString());
    updateStatus(m_disks->rowOf(m_shownPath));
}

void MainWindow::updateMeasureAction(const DiskEntry &entry)
{
    // A file has no physical sectors to time: its speed is the speed of the disk under it.
    m_measureAction->setEnabled(!entry.isImage);
    const QString tip =
        entry.isImage ? tr("%1 is a disk image: an image file has no physical sector of its own "
                           "to measure. Measure the drive that holds it.")
                            .arg(DiskListModel::nameOf(entry))
                      : tr("Time writes to find the drive's real physical sector size");
    m_measureAction->setToolTip(tip);
    m_measureAction->setStatusTip(tip); // shown for the greyed item too (disabledactionhints)
}

void MainWindow::measureSector()
{
    const int row = m_disks->rowOf(m_shownPath);
    ProbeDialog *dialog = nullptr;
    if (row >= 0 && !m_disks->entry(row).machine.isEmpty()) {
        // The probe writes to the drive: only the helper's process may open it.
        const DiskEntry &entry = m_disks->entry(row);
        ProbeRunner *runner =
            m_helperProbe ? m_helperProbe(entry.machine, entry.devicePath) : nullptr;
        if (!runner) {
            reportError(tr("Measure Physical Sector"),
                        tr("%1 is read through a helper that is not running; connect to %2 "
                           "again to measure it.")
                            .arg(DiskListModel::nameOf(entry), entry.machine));
            return;
        }
        dialog = new ProbeDialog(entry.path, DiskListModel::nameOf(entry), runner, this);
    } else {
        dialog = new ProbeDialog(m_shownPath, this);
    }
    connect(dialog, &ProbeDialog::measurementChanged, this, &MainWindow::reread);
    openProbeDialog(dialog);
}

QString MainWindow::diskName(const QString &path) const
{
    const int row = m_disks->rowOf(path);
    return row >= 0 ? DiskListModel::nameOf(m_disks->entry(row)) : path;
}

void MainWindow::reread(const QString &path)
{
    const int row = m_disks->rowOf(path);
    if (row < 0)
        return;
    if (const DiskEntry &entry = m_disks->entry(row); !entry.machine.isEmpty()) {
        emit rereadOnMachine(entry.machine, entry.devicePath); // its helper reads it
        return;
    }
    m_disks->markReading(row);
    m_service->read(path, m_disks->entry(row).forcedSectorSize);
}

void MainWindow::selectFirstInterestingRegion()
{
    // The first misaligned partition if there is one: that is what people came to see.
    int chosen = -1;
    for (int row = 0; row < m_partitions->rowCount(); ++row) {
        const AlignmentStatus status = m_partitions->verdict(row).status;
        if (status == AlignmentStatus::Misaligned) {
            chosen = row;
            break;
        }
        if (chosen < 0 && !m_partitions->region(row).isFree() &&
            status != AlignmentStatus::Container)
            chosen = row;
    }
    if (chosen < 0 && m_partitions->rowCount() > 0)
        chosen = 0;
    if (chosen >= 0)
        m_selection->setCurrentIndex(m_partitions->index(chosen, 0),
                                     QItemSelectionModel::ClearAndSelect |
                                         QItemSelectionModel::Rows);
}

void MainWindow::updateStatus(int row)
{
    if (row < 0) {
        m_status->setText(m_disks->rowCount() == 0 ? tr("No disk open") : QString());
        return;
    }
    const DiskEntry &entry = m_disks->entry(row);
    if (entry.state == DiskEntry::State::Reading) {
        m_status->setText(tr("Reading %1…").arg(DiskListModel::nameOf(entry)));
        return;
    }
    if (entry.state == DiskEntry::State::Failed) {
        m_status->setText(readError(entry));
        return;
    }
    // What is on screen, which is a preview while edits are pending.
    const QString name = DiskListModel::nameOf(entry);
    const QString readOnly = entry.layout.device.readOnly
                                 ? tr(" — read-only: Partwise writes nothing to it")
                                 : QString();
    const MisalignmentReport &report = m_partitions->report();
    if (m_partitions->layout().tableType.isEmpty()) {
        const QString fs = m_partitions->layout().wholeDiskFilesystemName();
        m_status->setText(
            (fs.isEmpty() ? tr("No partition table on %1").arg(name)
                          : tr("No partition table on %1: the whole disk holds %2").arg(name, fs)) +
            readOnly);
        return;
    }
    QString text =
        report.partitionCount() == 1
            ? tr("%1 of 1 partition misaligned on %2").arg(report.misalignedCount()).arg(name)
            : tr("%1 of %2 partitions misaligned on %3")
                  .arg(report.misalignedCount())
                  .arg(report.partitionCount())
                  .arg(name);
    if (report.sectorAlignedCount() > 0)
        text += tr("; %1 on a physical sector but not on the %2 grain")
                    .arg(report.sectorAlignedCount())
                    .arg(humanSize(report.geometry.grainBytes));
    m_status->setText(text + readOnly);
}

QString MainWindow::readError(const DiskEntry &entry) const
{
    // Core's errors usually name the disk already; don't say it twice.
    const QString name = DiskListModel::nameOf(entry);
    return entry.error.contains(entry.machine.isEmpty() ? entry.path : entry.devicePath)
               ? entry.error
               : tr("Cannot read %1: %2").arg(name, entry.error);
}

void MainWindow::chooseExportFile()
{
    const QString path = PictureExporter::choosePath(this, tr("Export Map"),
                                                     QFileInfo(m_shownPath).completeBaseName() +
                                                         QStringLiteral("-map.png"));
    if (path.isEmpty())
        return;
    QString error;
    if (PictureExporter::exportPicture(m_map->picture(), path, &error))
        statusBar()->showMessage(tr("Map saved to %1").arg(path), 5000);
    else
        reportError(tr("Export Map"), error);
}

void MainWindow::editPreferences()
{
    PreferencesDialog dialog(alignmentPolicy(), this);
    dialog.setJournalFolder(JournalPreferences::folder());
    if (dialog.exec() == QDialog::Accepted && dialog.isValid()) {
        JournalPreferences::setFolder(dialog.journalFolder());
        setAlignmentPolicy(dialog.policy());
    }
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Partwise"),
        tr("<h3>Partwise %1</h3><p>A partition editor that gets alignment "
           "right: misaligned partitions are outlined in red, partitions on a "
           "physical sector but off the grain in amber.</p>"
           "<p>Free software under the GNU General Public License, version 3 "
           "or later.</p><p>Website: <a href=\"%2\">%2</a></p>"
           "<p>The manual is the README on the website, and "
           "<tt>man partwise</tt> and <tt>man partwise-cli</tt> here.</p>")
            .arg(QString::fromLatin1(kPartwiseVersion), QStringLiteral("https://partwise.org/")));
}

void MainWindow::reportError(const QString &title, const QString &text)
{
    // Not modal: a failed practice disk must not block the window (or a test run).
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}
