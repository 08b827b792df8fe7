#pragma once

// Drive → Power Off / Safely Remove, as GNOME Disks has it: a USB drive flushed and let go of so
// it can be unplugged, through the same PartitionMounter as Mount (the helper's "power-off", or
// root's own window). Greyed with the reason when the drive is no USB drive, or operations are
// pending on it (they would be lost with it).

#include <QObject>

class MainWindow;
class MountActions;
class QAction;
struct HelperReply;

class PowerOffAction : public QObject
{
    Q_OBJECT

public:
    // Adds the action to the window's Drive menu.
    static PowerOffAction *install(MainWindow *window, MountActions *mount);

    QAction *action() const { return m_action; }

public slots:
    void powerOff();

signals:
    // An answer came back; tests wait for it.
    void finished(bool ok, const QString &message);

private:
    PowerOffAction(MainWindow *window, MountActions *mount);
    void updateAction();
    QString unavailableReason() const;

    MainWindow *m_window;
    MountActions *m_mount;
    QAction *m_action = nullptr;
};
