#include "mount/volumegroupactions.h"

#include "disklistmodel.h"
#include "diskmapwidget.h"
#include "editing/editingcontroller.h"
#include "mount/mountactions.h"
#include "mount/partitionmounter.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QTreeView>

using namespace partwise;

namespace {

const StorageLayer *physicalVolume(const PartitionInfo &partition)
{
    for (const StorageLayer &layer : partition.layers)
        if (layer.type == QLatin1String("LVM2_member"))
            return &layer;
    return nullptr;
}

} // namespace

VolumeGroupActions *VolumeGroupActions::install(MainWindow *window, MountActions *mount)
{
    return new VolumeGroupActions(window, mount);
}

VolumeGroupActions::VolumeGroupActions(MainWindow *window, MountActions *mount)
    : QObject(mount), m_window(window), m_mount(mount)
{
    m_activate = new QAction(tr("Acti&vate Volume Group"), this);
    m_activate->setObjectName(QStringLiteral("activateVolumeGroupAction"));
    m_activate->setToolTip(tr("Activate the LVM volume group of the selected physical volume"));
    m_deactivate = new QAction(tr("Deactivate Volume &Group"), this);
    m_deactivate->setObjectName(QStringLiteral("deactivateVolumeGroupAction"));
    m_deactivate->setToolTip(tr("Deactivate the LVM volume group of the selected physical volume"));
    connect(m_activate, &QAction::triggered, this, &VolumeGroupActions::activate);
    connect(m_deactivate, &QAction::triggered, this, &VolumeGroupActions::deactivate);
    mount->menu()->addSeparator();
    mount->menu()->addActions({m_activate, m_deactivate});
    for (QWidget *widget : {static_cast<QWidget *>(window->diskMap()),
                            static_cast<QWidget *>(window->partitionView())})
        widget->addActions({m_activate, m_deactivate});
    connect(window->regionSelection(), &QItemSelectionModel::currentChanged, this,
            &VolumeGroupActions::updateActions);
    connect(window, &MainWindow::diskShown, this, &VolumeGroupActions::updateActions);
    updateActions();
}

void VolumeGroupActions::updateActions()
{
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    const std::optional<PartitionInfo> region = m_window->editing()->selectedRegion();
    const StorageLayer *pv = region && !region->isFree() ? physicalVolume(*region) : nullptr;
    QString why;
    if (row < 0 || !pv)
        why = tr("Select an LVM physical volume.");
    else if (pv->volumeGroup.isEmpty())
        why = pv->readable() ? tr("This physical volume belongs to no volume group.")
                             : tr("pvs could not read this physical volume: %1").arg(pv->error);
    else
        why = m_mount->mounter()->unavailableReason(m_window->diskList()->entry(row));
    const bool active = pv && pv->volumeGroupActive();
    const QString group = pv ? pv->volumeGroup : QString();
    const QString activateWhy = !why.isEmpty() ? why
                                : active       ? tr("The volume group %1 is active.").arg(group)
                                               : QString();
    const QString deactivateWhy = !why.isEmpty() ? why
                                  : !active ? tr("The volume group %1 is not active.").arg(group)
                                            : QString();
    m_activate->setEnabled(activateWhy.isEmpty());
    m_activate->setStatusTip(activateWhy.isEmpty() ? wayOfActions() : activateWhy);
    m_deactivate->setEnabled(deactivateWhy.isEmpty());
    m_deactivate->setStatusTip(deactivateWhy.isEmpty() ? wayOfActions() : deactivateWhy);
}

QString VolumeGroupActions::wayOfActions() const
{
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    const bool helper = row >= 0 && !m_window->diskList()->entry(row).machine.isEmpty();
    return helper ? tr("Goes through the administrator's helper (vgchange, as root).")
                  : tr("Runs in this window, which runs as root (vgchange).");
}

void VolumeGroupActions::activate()
{
    run(QStringLiteral("vg-activate"));
}

void VolumeGroupActions::deactivate()
{
    run(QStringLiteral("vg-deactivate"));
}

void VolumeGroupActions::run(const QString &method)
{
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    const std::optional<PartitionInfo> region = m_window->editing()->selectedRegion();
    if (row < 0 || !region || region->number <= 0)
        return;
    const DiskEntry entry = m_window->diskList()->entry(row);
    QPointer<VolumeGroupActions> self(this);
    m_mount->mounter()->call(entry, method, region->number, {},
                             [self, method, path = entry.path](const HelperReply &reply) {
                                 if (!self)
                                     return;
                                 self->m_window->reread(path);
                                 self->report(reply, method);
                             });
}

void VolumeGroupActions::report(const HelperReply &reply, const QString &method)
{
    if (!reply.ok()) {
        emit finished(false, reply.error);
        QMessageBox::warning(m_window, tr("Partwise"), reply.error);
        return;
    }
    const QString group = reply.result.value(QStringLiteral("volume_group")).toString();
    QStringList volumes;
    for (const QJsonValue &v : reply.result.value(QStringLiteral("active_volumes")).toArray())
        volumes << v.toString();
    const QString message =
        method == QLatin1String("vg-deactivate") ? tr("Deactivated the volume group %1.").arg(group)
        : volumes.isEmpty()
            ? tr("Activated the volume group %1; it has no logical volumes.").arg(group)
            : tr("Activated the volume group %1: %2.")
                  .arg(group, volumes.join(QStringLiteral(", ")));
    m_window->statusBar()->showMessage(message + QLatin1Char(' ') + wayOfActions());
    emit finished(true, message);
}
