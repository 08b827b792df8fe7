#pragma once

// Drive → Copy Disk To…: opens the Copy Disk wizard (copywizard.h) for the disk on screen.

#include <QObject>
#include <QPointer>
#include <QSet>

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

    // A helper's disk by its list key: the journal of a copy onto it that stopped part-way, as
    // the helper's read-disk said (empty: none).
    using HelperInterrupted = std::function<QString(const QString &key)>;

    CopyController(MainWindow *window, HelperBackend helperBackend,
                   HelperInterrupted helperInterrupted);

    QAction *action() const { return m_action; }
    QAction *finishAction() const { return m_finishAction; }
    CopyWizard *wizard() const { return m_wizard; }

public slots:
    CopyWizard *openWizard();
    // Finishes the copy that stopped part-way onto the disk `key` (Drive → Finish Interrupted
    // Copy, or the question when such a disk is shown).
    CopyWizard *finishInterrupted(const QString &key);

signals:
    void wizardOpened(CopyWizard *wizard);
    void resumeOffered(const QString &key);

private:
    void updateState();
    QString interruptedCopy(const QString &key) const; // its journal, or empty
    CopyBackend *backendFor(const QString &machine, const QString &name);
    CopyWizard *showWizard(const CopySetup &setup, CopyBackend *backend);
    void offerToFinish(const QString &key);

    MainWindow *m_window;
    HelperBackend m_helperBackend;
    HelperInterrupted m_helperInterrupted;
    QAction *m_action;
    QAction *m_finishAction;
    QSet<QString> m_offered; // disks whose interrupted copy was offered once already
    QPointer<CopyWizard> m_wizard;
};

// Call once: the Copy Disk half of the window.
CopyController *installCopyDisk(MainWindow *window, CopyController::HelperBackend helperBackend,
                                CopyController::HelperInterrupted helperInterrupted);
