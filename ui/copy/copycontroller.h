#pragma once

// Drive → Copy Disk To…: opens the Copy Disk wizard (copywizard.h) for the disk on screen.

#include <QObject>
#include <QPointer>

#include <functional>

class CopyBackend;
#include "copy/copywizard.h"
class MainWindow;
class QAction;

class CopyController : public QObject
{
    Q_OBJECT

public:
    // The backend for disks a helper serves, by the disk list's machine name; null when that
    // helper is not running. A disk of this process is copied by a CopyWorker.
    using HelperBackend = std::function<CopyBackend *(const QString &machine)>;

    CopyController(MainWindow *window, HelperBackend helperBackend);

    QAction *action() const { return m_action; }
    CopyWizard *wizard() const { return m_wizard; }

public slots:
    CopyWizard *openWizard();

signals:
    void wizardOpened(CopyWizard *wizard);

private:
    void updateState();

    MainWindow *m_window;
    HelperBackend m_helperBackend;
    QAction *m_action;
    QPointer<CopyWizard> m_wizard;
};

// Call once: the Copy Disk half of the window.
CopyController *installCopyDisk(MainWindow *window, CopyController::HelperBackend helperBackend);
