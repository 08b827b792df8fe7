#include "copy/copycontroller.h"

#include "copy/copywizard.h"
#include "copy/copyworker.h"
#include "disklistmodel.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

using namespace partwise;

CopyController *installCopyDisk(MainWindow *window, CopyController::HelperBackend helperBackend)
{
    return new CopyController(window, std::move(helperBackend));
}

CopyController::CopyController(MainWindow *window, HelperBackend helperBackend)
    : QObject(window), m_window(window), m_helperBackend(std::move(helperBackend))
{
    setObjectName(QStringLiteral("copyController"));
    m_action = new QAction(tr("&Copy Disk To…"), this);
    m_action->setObjectName(QStringLiteral("copyDiskAction"));
    m_action->setToolTip(tr("Copy this disk onto another disk or a new image, every partition "
                            "on the grain"));
    connect(m_action, &QAction::triggered, this, &CopyController::openWizard);
    if (auto *drive = window->menuBar()->findChild<QMenu *>(QStringLiteral("driveMenu")))
        drive->addAction(m_action);
    else
        window->addAction(m_action);
    connect(window, &MainWindow::diskShown, this, &CopyController::updateState);
    connect(window->diskList(), &DiskListModel::entryChanged, this, &CopyController::updateState);
    updateState();
}

void CopyController::updateState()
{
    const std::optional<DiskLayout> layout = m_window->currentLayout();
    m_action->setEnabled(!m_wizard && layout && !layout->tableType.isEmpty());
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
        setup.imageFolder = QFileInfo(setup.sourcePath).absolutePath();
    // Only what the same helper (or this process) reaches: the copy runs where both disks are.
    for (int i = 0; i < disks->rowCount(); ++i) {
        const DiskEntry &entry = disks->entry(i);
        if (i == row || entry.machine != source.machine || entry.state != DiskEntry::State::Ready)
            continue;
        setup.targets.append({entry.path, m_window->diskName(entry.path), pathOf(entry),
                              entry.layout.device.sizeBytes});
    }
    CopyBackend *backend = source.machine.isEmpty()
                               ? new CopyWorker
                               : (m_helperBackend ? m_helperBackend(source.machine) : nullptr);
    if (!backend) {
        m_window->statusBar()->showMessage(
            tr("The helper that serves %1 is not running.").arg(setup.sourceName));
        return nullptr;
    }
    auto *wizard = new CopyWizard(setup, backend, m_window);
    m_wizard = wizard;
    connect(wizard, &CopyWizard::copyFinished, this,
            [this](const QString &target, bool newImage, bool) {
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
