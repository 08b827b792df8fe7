#pragma once

// The Partition menu's Unmount, Mount On…, Swap Off and Swap On (also in the context menus of
// the map and the list), as GParted has them; and "Unmount and Continue" where the realignment
// wizard's plan is stopped by partitions in use, with the offer to mount them back once the
// run ends. Everything goes through a PartitionMounter (the helper, or root's own window), and
// the disk is read again after each action, so the map shows what is true now.

#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <optional>

#include "table/partitioninfo.h"

class DiskReleaser;
class MainWindow;
class PartitionMounter;
class QAction;
class QMenu;
class QWidget;
class RealignController;
class RealignWizard;
struct DiskEntry;
struct HelperReply;

class MountActions : public QObject
{
    Q_OBJECT

public:
    // `mounter` is kept (this takes it).
    static MountActions *install(MainWindow *window, RealignController *realign,
                                 PartitionMounter *mounter);

    QMenu *menu() const { return m_menu; }
    QAction *unmountAction() const { return m_unmount; }
    QAction *mountAction() const { return m_mount; }
    QAction *swapOffAction() const { return m_swapOff; }
    QAction *swapOnAction() const { return m_swapOn; }
    PartitionMounter *mounter() const { return m_mounter; }
    DiskReleaser *releaser() const { return m_releaser; }

public slots:
    void unmount();
    // Asks where: a folder (chosen in a file dialog) or under /run/media.
    void mountOn();
    // Mounts on `folder`, or under /run/media when it is empty (what mountOn() asks for).
    void mountAt(const QString &folder);
    void swapOff();
    void swapOn();

signals:
    // An action's answer came back (and the disk is being read again); tests wait for it.
    void finished(bool ok, const QString &message);

private:
    MountActions(MainWindow *window, RealignController *realign, PartitionMounter *mounter);
    void updateActions();
    bool current(DiskEntry *entry, partwise::PartitionInfo *partition) const;
    void run(const QString &method, const QJsonObject &extra, const QString &done);
    void report(const HelperReply &reply, const QString &method, const QJsonObject &extra,
                const QString &done);
    void attachToWizard(RealignWizard *wizard);
    // Apply's "Unmount and Continue" (EditingController::InUseHandler).
    void attachToApply();
    // Asks whether to mount back what was freed on `target` for `job`, and does it.
    void offerMountBack(const QString &target, QWidget *parent);

    MainWindow *m_window;
    PartitionMounter *m_mounter;
    DiskReleaser *m_releaser;
    QMenu *m_menu = nullptr;
    QAction *m_unmount = nullptr;
    QAction *m_mount = nullptr;
    QAction *m_swapOff = nullptr;
    QAction *m_swapOn = nullptr;
};
