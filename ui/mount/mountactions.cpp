#include "mount/mountactions.h"

#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "mount/diskreleaser.h"
#include "mount/partitionmounter.h"
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "realign/realignwizard.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTreeView>
#include <unistd.h>

#include "diskmapwidget.h"

using namespace partwise;

MountActions *MountActions::install(MainWindow *window, RealignController *realign,
                                    PartitionMounter *mounter)
{
    return new MountActions(window, realign, mounter);
}

MountActions::MountActions(MainWindow *window, RealignController *realign,
                           PartitionMounter *mounter)
    : QObject(window), m_window(window), m_mounter(mounter),
      m_releaser(new DiskReleaser(mounter, this))
{
    mounter->setParent(this);
    m_unmount = new QAction(tr("&Unmount"), this);
    m_unmount->setObjectName(QStringLiteral("unmountAction"));
    m_unmount->setToolTip(tr("Unmount the selected partition wherever it is mounted"));
    m_mount = new QAction(tr("&Mount On…"), this);
    m_mount->setObjectName(QStringLiteral("mountAction"));
    m_swapOff = new QAction(tr("Swap O&ff"), this);
    m_swapOff->setObjectName(QStringLiteral("swapOffAction"));
    m_swapOn = new QAction(tr("Swap &On"), this);
    m_swapOn->setObjectName(QStringLiteral("swapOnAction"));
    connect(m_unmount, &QAction::triggered, this, &MountActions::unmount);
    connect(m_mount, &QAction::triggered, this, &MountActions::mountOn);
    connect(m_swapOff, &QAction::triggered, this, &MountActions::swapOff);
    connect(m_swapOn, &QAction::triggered, this, &MountActions::swapOn);
    const QList<QAction *> actions{m_unmount, m_mount, m_swapOff, m_swapOn};

    m_menu = new QMenu(tr("&Partition"), window);
    m_menu->setObjectName(QStringLiteral("partitionMenu"));
    m_menu->setToolTipsVisible(true); // says why New UUID is off for a filesystem
    m_menu->addActions(actions);
    // New UUID and New Partition GUID are queued like any edit; they sit here as in GParted.
    const QList<QAction *> ids{
        window->editing()->action(EditingController::Action::NewUuid),
        window->editing()->action(EditingController::Action::NewPartitionGuid)};
    m_menu->addSeparator();
    m_menu->addActions(ids);
    const QList<QAction *> top = window->menuBar()->actions();
    window->menuBar()->insertMenu(top.value(2), m_menu); // after File and Edit
    for (QWidget *widget : {static_cast<QWidget *>(window->diskMap()),
                            static_cast<QWidget *>(window->partitionView())}) {
        auto *separator = new QAction(this);
        separator->setSeparator(true);
        widget->addAction(separator);
        widget->addActions(actions);
        widget->addActions(ids);
    }
    connect(window->regionSelection(), &QItemSelectionModel::currentChanged, this,
            &MountActions::updateActions);
    connect(window->regionSelection(), &QItemSelectionModel::selectionChanged, this,
            &MountActions::updateActions);
    connect(window, &MainWindow::diskShown, this, &MountActions::updateActions);
    if (realign)
        connect(realign, &RealignController::wizardOpened, this, &MountActions::attachToWizard);
    attachToApply();
    updateActions();
}

bool MountActions::current(DiskEntry *entry, PartitionInfo *partition) const
{
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    if (row < 0)
        return false;
    *entry = m_window->diskList()->entry(row);
    const std::optional<PartitionInfo> region = m_window->editing()->selectedRegion();
    if (!region || region->isFree() || region->isContainer() || region->number <= 0)
        return false;
    *partition = *region;
    return true;
}

void MountActions::updateActions()
{
    DiskEntry entry;
    PartitionInfo partition;
    const bool selected = current(&entry, &partition);
    const QString why = selected ? m_mounter->unavailableReason(entry) : QString();
    const bool usable = selected && why.isEmpty();
    const bool swap = partition.filesystem == QLatin1String("swap");
    const bool filesystem = !partition.filesystem.isEmpty() && !swap;
    m_unmount->setEnabled(usable && filesystem);
    m_mount->setEnabled(usable && filesystem);
    // Active swap is the system's: the administrator's helper never turns it off for a user's
    // session (only a window run by root does), so a user's window does not offer it.
    const bool systemsSwap = ::geteuid() != 0;
    m_swapOff->setEnabled(usable && swap && !systemsSwap);
    m_swapOn->setEnabled(usable && swap && !systemsSwap);
    for (QAction *a : {m_unmount, m_mount, m_swapOff, m_swapOn})
        a->setStatusTip(why);
    // Which way Unmount and Mount go (Mount On's folder of the user's choosing: the helper).
    if (usable && m_mounter->goesThroughUdisks(entry, QStringLiteral("unmount")))
        for (QAction *a : {m_unmount, m_mount})
            a->setStatusTip(PartitionMounter::udisksWay());
    if (systemsSwap && why.isEmpty())
        for (QAction *a : {m_swapOff, m_swapOn})
            a->setStatusTip(tr("Swap is the system's: an administrator turns it off or on "
                               "(swapoff, swapon)."));
}

void MountActions::run(const QString &method, const QJsonObject &extra, const QString &done)
{
    DiskEntry entry;
    PartitionInfo partition;
    if (!current(&entry, &partition))
        return;
    QPointer<MountActions> self(this);
    m_mounter->call(entry, method, partition.number, extra,
                    [self, method, extra, done, path = entry.path](const HelperReply &reply) {
                        if (!self)
                            return;
                        self->m_window->reread(path); // what is true now, whatever came back
                        self->report(reply, method, extra, done);
                    });
}

void MountActions::report(const HelperReply &reply, const QString &method, const QJsonObject &extra,
                          const QString &done)
{
    if (reply.ok()) {
        const QString way = PartitionMounter::wayTaken(reply, QString());
        m_window->statusBar()->showMessage(way.isEmpty() ? done : done + QLatin1Char(' ') + way,
                                           8000);
        emit finished(true, done);
        return;
    }
    emit finished(false, reply.error);
    QMessageBox box(QMessageBox::Warning, tr("Partwise"), reply.error, QMessageBox::Cancel,
                    m_window);
    box.setObjectName(QStringLiteral("mountRefusal"));
    const QStringList holders = PartitionMounter::holdersOf(reply);
    QPushButton *again = nullptr;
    if (method == QLatin1String("unmount") && !holders.isEmpty()) {
        box.setText(tr("The partition is in use by: %1.").arg(holders.join(QStringLiteral(", "))));
        box.setInformativeText(tr("Close those programs (or leave the folder in them), then try "
                                  "again. Partwise never forces an unmount."));
        box.setDetailedText(reply.error);
        again = box.addButton(tr("Try &Again"), QMessageBox::AcceptRole);
    }
    box.exec();
    if (again && box.clickedButton() == again)
        run(method, extra, done);
}

void MountActions::unmount()
{
    run(QStringLiteral("unmount"), {}, tr("Unmounted."));
}

void MountActions::mountOn()
{
    QMessageBox box(QMessageBox::Question, tr("Mount On"),
                    tr("Where should the partition be mounted?"), QMessageBox::Cancel, m_window);
    QPushButton *folder = box.addButton(tr("Choose a &Folder…"), QMessageBox::AcceptRole);
    QPushButton *media = box.addButton(tr("Under /run/&media"), QMessageBox::AcceptRole);
    box.setInformativeText(tr("A folder must be your own. The partition is mounted without "
                              "set-user-ID programs and device files."));
    box.exec();
    if (box.clickedButton() == media) {
        mountAt(QString());
    } else if (box.clickedButton() == folder) {
        const QString chosen = QFileDialog::getExistingDirectory(m_window, tr("Mount On"));
        if (!chosen.isEmpty())
            mountAt(chosen);
    }
}

void MountActions::mountAt(const QString &folder)
{
    run(QStringLiteral("mount"),
        folder.isEmpty() ? QJsonObject{{QStringLiteral("media"), true}}
                         : QJsonObject{{QStringLiteral("folder"), folder}},
        tr("Mounted."));
}

void MountActions::swapOff()
{
    run(QStringLiteral("swapoff"), {}, tr("Swap turned off."));
}

void MountActions::swapOn()
{
    run(QStringLiteral("swapon"), {}, tr("Swap turned on."));
}

void MountActions::attachToWizard(RealignWizard *wizard)
{
    const int row = m_window->diskList()->rowOf(wizard->setup().target);
    if (row < 0)
        return;
    const DiskEntry entry = m_window->diskList()->entry(row);
    if (!m_mounter->unavailableReason(entry).isEmpty())
        return;
    QPointer<MountActions> self(this);
    wizard->planPage()->setUnmountHandler([self, entry](const RealignPlanPage::UnmountDone &done) {
        if (!self)
            return;
        // The window shows what is true once it is done (the lock gone, or still there).
        self->m_releaser->release(entry,
                                  [self, path = entry.path, done](bool ok, const QString &message) {
                                      if (self)
                                          self->m_window->reread(path);
                                      done(ok, message);
                                  });
    });
    connect(wizard, &RealignWizard::realignmentFinished, this,
            [this, wizard = QPointer<RealignWizard>(wizard)](const QString &target, bool,
                                                             bool resumable) {
                if (!resumable) // the work must be finished before anything is mounted
                    offerMountBack(target, wizard);
            });
}

void MountActions::attachToApply()
{
    EditingController::InUseHandler handler;
    QPointer<MountActions> self(this);
    handler.release = [self](const QString &path, const QList<int> &numbers,
                             const EditingController::InUseHandler::Done &done) {
        if (!self)
            return;
        const int row = self->m_window->diskList()->rowOf(path);
        if (row < 0) {
            done(false, tr("The disk is no longer listed."));
            return;
        }
        const DiskEntry entry = self->m_window->diskList()->entry(row);
        if (const QString why = self->m_mounter->unavailableReason(entry); !why.isEmpty()) {
            done(false, why);
            return;
        }
        self->m_releaser->release(entry, done, numbers);
    };
    handler.finished = [self](const QString &path, const ApplyResult &result) {
        if (self && !result.resumable) // an unfinished job is resumed before anything is mounted
            self->offerMountBack(path, self->m_window);
    };
    m_window->editing()->setInUseHandler(handler);
}

void MountActions::offerMountBack(const QString &target, QWidget *parent)
{
    const int r = m_window->diskList()->rowOf(target);
    if (r < 0 || m_releaser->freed(target).isEmpty())
        return;
    const DiskEntry e = m_window->diskList()->entry(r);
    QMessageBox ask(QMessageBox::Question, tr("Mount Back"),
                    tr("Partwise unmounted partitions of %1 for this job. Mount them back where "
                       "they were?")
                        .arg(m_window->diskName(target)),
                    QMessageBox::Yes | QMessageBox::No, parent);
    ask.setObjectName(QStringLiteral("mountBackOffer"));
    if (ask.exec() != QMessageBox::Yes)
        return;
    m_releaser->restore(e, [this, target](bool ok, const QString &message) {
        m_window->reread(target);
        if (ok) {
            m_window->statusBar()->showMessage(tr("Mounted back."), 8000);
            return;
        }
        QMessageBox failed(QMessageBox::Warning, tr("Mount Back"), message, QMessageBox::Ok,
                           m_window);
        failed.setObjectName(QStringLiteral("mountBackFailed"));
        failed.exec();
    });
}
