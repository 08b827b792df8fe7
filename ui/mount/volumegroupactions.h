#pragma once

// Partition → Activate Volume Group and Deactivate Volume Group, as KDE Partition Manager has
// them: the LVM group of the selected physical volume, through the same PartitionMounter as
// Mount (the helper's "vg-activate" and "vg-deactivate", or root's own window). Each is greyed
// with the reason when it cannot be done; the disk is read again after each, and the status
// line says which volumes are active and which way the action went.

#include <QObject>

class MainWindow;
class MountActions;
class QAction;
struct HelperReply;

class VolumeGroupActions : public QObject
{
    Q_OBJECT

public:
    // Adds the actions to `mount`'s Partition menu and to the map's and list's context menus.
    static VolumeGroupActions *install(MainWindow *window, MountActions *mount);

    QAction *activateAction() const { return m_activate; }
    QAction *deactivateAction() const { return m_deactivate; }

public slots:
    void activate();
    void deactivate();

signals:
    // An answer came back (and the disk is being read again); tests wait for it.
    void finished(bool ok, const QString &message);

private:
    VolumeGroupActions(MainWindow *window, MountActions *mount);
    void updateActions();
    void run(const QString &method);
    void report(const HelperReply &reply, const QString &method);
    QString wayOfActions() const;

    MainWindow *m_window;
    MountActions *m_mount;
    QAction *m_activate = nullptr;
    QAction *m_deactivate = nullptr;
};
