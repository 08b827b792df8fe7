#include "mount/poweroffaction.h"

#include "device/drivepoweroff.h"
#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "mount/mountactions.h"
#include "mount/partitionmounter.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>

using namespace partwise;

PowerOffAction *PowerOffAction::install(MainWindow *window, MountActions *mount)
{
    return new PowerOffAction(window, mount);
}

PowerOffAction::PowerOffAction(MainWindow *window, MountActions *mount)
    : QObject(mount), m_window(window), m_mount(mount)
{
    m_action = new QAction(tr("Power &Off / Safely Remove"), this);
    m_action->setObjectName(QStringLiteral("powerOffAction"));
    m_action->setToolTip(tr("Flush the USB drive and power it off so it can be unplugged"));
    connect(m_action, &QAction::triggered, this, &PowerOffAction::powerOff);
    if (auto *drive = window->menuBar()->findChild<QMenu *>(QStringLiteral("driveMenu"))) {
        drive->addSeparator();
        drive->addAction(m_action);
    }
    connect(window, &MainWindow::diskShown, this, &PowerOffAction::updateAction);
    connect(window->editing(), &EditingController::previewChanged, this,
            &PowerOffAction::updateAction);
    updateAction();
}

QString PowerOffAction::unavailableReason() const
{
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    if (row < 0)
        return tr("Choose a USB drive first.");
    const DiskEntry entry = m_window->diskList()->entry(row);
    if (entry.isImage)
        return tr("An image file is no drive to power off.");
    QString why;
    // sysfs says what the drive hangs from; anyone may read it (the helper checks again).
    if (!canPowerOff(entry.machine.isEmpty() ? entry.path : entry.devicePath, &why))
        return tr("Only USB drives are powered off; this one is not.");
    if (PendingOperations *queue = m_window->editing()->pendingFor(entry.path);
        queue && !queue->isEmpty())
        return tr("Operations are pending on this drive: apply or clear them first.");
    return m_mount->mounter()->unavailableReason(entry);
}

void PowerOffAction::updateAction()
{
    const QString why = unavailableReason();
    m_action->setEnabled(why.isEmpty());
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    const bool helper = row >= 0 && !m_window->diskList()->entry(row).machine.isEmpty();
    const bool udisks =
        row >= 0 && m_mount->mounter()->goesThroughUdisks(m_window->diskList()->entry(row),
                                                          QStringLiteral("power-off"));
    m_action->setStatusTip(!why.isEmpty() ? why
                           : udisks       ? PartitionMounter::udisksWay()
                           : helper
                               ? tr("Goes through the administrator's helper (sysfs, as root).")
                               : tr("Runs in this window, which runs as root (sysfs)."));
}

void PowerOffAction::powerOff()
{
    if (!unavailableReason().isEmpty())
        return;
    const DiskEntry entry =
        m_window->diskList()->entry(m_window->diskList()->rowOf(m_window->currentPath()));
    QPointer<PowerOffAction> self(this);
    m_mount->mounter()->call(
        entry, QStringLiteral("power-off"), 0, {},
        [self, name = entry.path](const HelperReply &reply) {
            if (!self)
                return;
            if (!reply.ok()) {
                emit self->finished(false, reply.error);
                QMessageBox::warning(self->m_window, tr("Partwise"), reply.error);
                return;
            }
            QString message = tr("%1 is powered off; it can be unplugged now.").arg(name);
            if (const QString way = PartitionMounter::wayTaken(reply, {}); !way.isEmpty())
                message += QLatin1Char(' ') + way;
            self->m_window->statusBar()->showMessage(message);
            emit self->finished(true, message);
        });
}
