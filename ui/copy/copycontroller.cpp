#include "copy/copycontroller.h"

#include "copy/copywizard.h"
#include "copy/copyworker.h"
#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "editing/lastapplyundo.h"
#include "ops/copyrunner.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>

using namespace partwise;

CopyController *installCopyDisk(MainWindow *window, CopyController::HelperBackend helperBackend,
                                CopyController::HelperInterrupted helperInterrupted)
{
    return new CopyController(window, std::move(helperBackend), std::move(helperInterrupted));
}

namespace {

// Where a new image is suggested: beside its source, unless that folder is temporary (the demo
// disk's is deleted when Partwise quits, taking the copy with it) or not writable; then the
// user's Documents folder, or home.
QString suggestedImageFolder(const QString &besideSource)
{
    const QString temp = QDir(QDir::tempPath()).canonicalPath();
    const QString folder = QFileInfo(besideSource).canonicalFilePath();
    const bool temporary = !folder.isEmpty() && (folder == temp || folder.startsWith(temp + u'/'));
    if (!folder.isEmpty() && !temporary && QFileInfo(folder).isWritable())
        return folder;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QFileInfo(documents).isDir() && QFileInfo(documents).isWritable() ? documents
                                                                             : QDir::homePath();
}

} // namespace

CopyController::CopyController(MainWindow *window, HelperBackend helperBackend,
                               HelperInterrupted helperInterrupted)
    : QObject(window), m_window(window), m_helperBackend(std::move(helperBackend)),
      m_helperInterrupted(std::move(helperInterrupted))
{
    setObjectName(QStringLiteral("copyController"));
    m_action = new QAction(tr("&Copy Disk To…"), this);
    m_action->setObjectName(QStringLiteral("copyDiskAction"));
    m_action->setToolTip(tr("Copy this disk onto another disk or a new image, every partition "
                            "on the grain"));
    connect(m_action, &QAction::triggered, this, &CopyController::openWizard);
    m_finishAction = new QAction(tr("&Finish Interrupted Copy…"), this);
    m_finishAction->setObjectName(QStringLiteral("finishCopyAction"));
    m_finishAction->setToolTip(tr("Finish the copy that stopped part-way onto this disk"));
    connect(m_finishAction, &QAction::triggered, this,
            [this] { finishInterrupted(m_window->currentPath()); });
    for (QAction *action : {m_action, m_finishAction}) {
        if (auto *drive = window->menuBar()->findChild<QMenu *>(QStringLiteral("driveMenu")))
            drive->addAction(action);
        else
            window->addAction(action);
    }
    connect(window, &MainWindow::diskShown, this, &CopyController::updateState);
    connect(window->diskList(), &DiskListModel::entryChanged, this, &CopyController::updateState);
    updateState();
}

void CopyController::updateState()
{
    const std::optional<DiskLayout> layout = m_window->currentLayout();
    const QString why = !layout    ? tr("Open a disk or a disk image first.")
                        : m_wizard ? tr("The Copy Disk wizard is open.")
                        : layout->tableType.isEmpty()
                            ? tr("This disk has no partition table: there are no partitions to "
                                 "copy.")
                            : QString();
    m_action->setEnabled(why.isEmpty());
    const QString tip = why.isEmpty() ? tr("Copy this disk onto another disk or a new image, "
                                           "every partition on the grain")
                                      : why;
    m_action->setToolTip(tip);
    m_action->setStatusTip(tip);
    const QString key = m_window->currentPath();
    // Such a disk usually cannot be read (no table, part of the data): asked all the same.
    const bool interrupted = !interruptedCopy(key).isEmpty();
    m_finishAction->setEnabled(!m_wizard && interrupted);
    m_finishAction->setStatusTip(interrupted ? m_finishAction->toolTip()
                                             : tr("No copy onto this disk was interrupted."));
    if (interrupted && !m_wizard && !m_offered.contains(key))
        offerToFinish(key);
}

QString CopyController::interruptedCopy(const QString &key) const
{
    const DiskListModel *disks = m_window->diskList();
    const int row = disks->rowOf(key);
    if (row < 0)
        return {};
    const DiskEntry &entry = disks->entry(row);
    if (!entry.machine.isEmpty())
        return m_helperInterrupted ? m_helperInterrupted(key) : QString();
    return interruptedCopyJournal(entry.path);
}

// Asked once per disk and session: a copy stopped part-way leaves the target without a table.
void CopyController::offerToFinish(const QString &key)
{
    m_offered.insert(key);
    const QString name = m_window->diskName(key);
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Interrupted Copy"),
        tr("A copy onto %1 was interrupted. Until it is finished, %1 holds no partition table; "
           "its journal (%2) lets Partwise finish it. Finish it now?")
            .arg(name, interruptedCopy(key)),
        QMessageBox::NoButton, m_window);
    box->setObjectName(QStringLiteral("copyResumeOffer"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *finish = box->addButton(tr("&Finish Now"), QMessageBox::AcceptRole);
    finish->setObjectName(QStringLiteral("finishNowButton"));
    QPushButton *later = box->addButton(tr("&Later"), QMessageBox::RejectRole);
    box->setDefaultButton(finish);
    box->setEscapeButton(later);
    connect(box, &QMessageBox::finished, this, [this, box, finish, key] {
        if (box->clickedButton() == finish)
            finishInterrupted(key);
    });
    box->open();
    emit resumeOffered(key);
}

CopyWizard *CopyController::finishInterrupted(const QString &key)
{
    const int row = m_window->diskList()->rowOf(key);
    if (m_wizard || row < 0 || interruptedCopy(key).isEmpty())
        return nullptr;
    const DiskEntry &entry = m_window->diskList()->entry(row);
    CopySetup setup;
    setup.resume = CopyTargetChoice{key, m_window->diskName(key),
                                    entry.machine.isEmpty() ? entry.path : entry.devicePath,
                                    entry.layout.device.sizeBytes};
    CopyBackend *backend = backendFor(entry.machine, setup.resume->name);
    return backend ? showWizard(setup, backend) : nullptr;
}

CopyBackend *CopyController::backendFor(const QString &machine, const QString &name)
{
    CopyBackend *backend =
        machine.isEmpty() ? new CopyWorker : (m_helperBackend ? m_helperBackend(machine) : nullptr);
    if (!backend)
        m_window->statusBar()->showMessage(
            tr("The helper that serves %1 is not running.").arg(name));
    return backend;
}

CopyWizard *CopyController::openWizard()
{
    if (m_wizard)
        return nullptr;
    const QString key = m_window->currentPath();
    const std::optional<DiskLayout> layout = m_window->currentLayout();
    const DiskListModel *disks = m_window->diskList();
    const int row = disks->rowOf(key);
    if (!layout || layout->tableType.isEmpty() || row < 0)
        return nullptr;
    const DiskEntry &source = disks->entry(row);
    const auto pathOf = [](const DiskEntry &entry) {
        return entry.machine.isEmpty() ? entry.path : entry.devicePath;
    };
    CopySetup setup;
    setup.sourceKey = key;
    setup.sourceName = m_window->diskName(key);
    setup.sourcePath = pathOf(source);
    setup.sourceSizeBytes = layout->device.sizeBytes;
    setup.forcedSectorSize = source.forcedSectorSize;
    setup.sourceIsImage = source.isImage;
    setup.policy = m_window->alignmentPolicy();
    if (source.isImage)
        setup.imageFolder = suggestedImageFolder(QFileInfo(setup.sourcePath).absolutePath());
    // Only what the same helper (or this process) reaches: the copy runs where both disks are.
    for (int i = 0; i < disks->rowCount(); ++i) {
        const DiskEntry &entry = disks->entry(i);
        if (i == row || entry.machine != source.machine || entry.state != DiskEntry::State::Ready)
            continue;
        setup.targets.append({entry.path, m_window->diskName(entry.path), pathOf(entry),
                              entry.layout.device.sizeBytes});
    }
    CopyBackend *backend = backendFor(source.machine, setup.sourceName);
    return backend ? showWizard(setup, backend) : nullptr;
}

CopyWizard *CopyController::showWizard(const CopySetup &setup, CopyBackend *backend)
{
    auto *wizard = new CopyWizard(setup, backend, m_window);
    m_wizard = wizard;
    connect(wizard, &CopyWizard::copyFinished, this,
            [this](const QString &target, bool newImage, bool) {
                if (m_window->editing())
                    m_window->editing()->lastApplyUndo()->forget(
                        target, tr("The last job on this disk was a copy onto it: its data is "
                                   "new, and a table backup cannot bring the old back."));
                if (newImage)
                    m_window->openImage(target);
                else
                    m_window->reread(target);
            });
    connect(wizard, &QDialog::finished, wizard, &QObject::deleteLater);
    connect(wizard, &QObject::destroyed, this, [this] {
        m_wizard = nullptr;
        updateState();
    });
    wizard->setWindowModality(Qt::WindowModal);
    wizard->show();
    updateState();
    emit wizardOpened(wizard);
    return wizard;
}
