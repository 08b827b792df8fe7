#pragma once

#include "ops/realignrunner.h"
#include "realign/realignwizard.h"

class EditingController;
namespace partwise {
struct WriteJournal;
}

#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>

class MainWindow;
class QAction;
class RealignBackend;
class RealignBanner;

// How the wizard reaches a disk a helper serves (another machine's, or this one's when the
// window runs as a user); `key` is the disk list's.
struct HelperRealign
{
    // The helper's backend for the disk (the wizard takes it); null when it is not running.
    std::function<RealignBackend *(const QString &key)> backendFor;
    // The journal, there, of a realignment of the disk that stopped part-way; "" when none.
    std::function<QString(const QString &key)> interruptedJournal;
};

// Gives Partwise's main window its realignment half through the window's public API: the
// Realign… action (Edit menu and the context menus of the map and the list), the banner above
// the map when the disk on screen has misaligned partitions, and the start-up check that offers
// to finish a realignment whose journal says it was interrupted.
class RealignController : public QObject
{
    Q_OBJECT

public:
    static RealignController *install(MainWindow *window, EditingController *editing);

    QAction *realignAction() const { return m_action; }
    RealignBanner *banner() const { return m_banner; }
    RealignWizard *wizard() const { return m_wizard; }
    QMessageBox *resumeOffer() const { return m_offer; }

    // Where journals and table backups go, and whether moves are verified (tests use folders
    // of their own). The journal path, when set, applies to every disk.
    void setDefaultOptions(const partwise::RealignOptions &options) { m_options = options; }
    partwise::RealignOptions defaultOptions() const { return m_options; }

    // The default options with the journal folder of the preferences, unless they name one.
    partwise::RealignOptions options() const;
    // The journal that would record an interrupted realignment of `target`.
    QString journalPathFor(const QString &target) const;

    // A disk a helper reads and writes is realigned by that helper, through the same wizard.
    // Without these, such disks are not offered for realigning.
    void setHelperRealign(HelperRealign helper);

public slots:
    // Opens the wizard for the disk on screen (window-modal), its misaligned partitions chosen,
    // and with `withSelection` the selected partition too. Returns it, or nullptr when there is
    // nothing to realign or edits are pending (a message says why).
    RealignWizard *openWizard(bool withSelection = true);
    // Opens the wizard on the run page, finishing the realignment recorded for `target`.
    RealignWizard *finishInterrupted(const QString &target);

signals:
    void wizardOpened(RealignWizard *wizard);
    void resumeOffered(const QString &target);

private:
    RealignController(MainWindow *window, EditingController *editing);
    void updateState();
    bool throughHelper(const QString &path) const;
    QString interruptedJournal(const QString &path) const; // "" when none
    int unfinishedPartition(const QString &target) const;  // 0: unknown
    RealignSetup setupFor(const QString &path) const;
    RealignBackend *backendFor(const QString &path);
    void checkForJournal(const QString &path);
    void offerNext();
    static QString interruptedText(const QString &path, const partwise::WriteJournal &journal,
                                   const QString &journalPath);
    RealignWizard *showWizard(const RealignSetup &setup);

    MainWindow *m_window;
    EditingController *m_editing; // null when the window has no editing half
    QAction *m_action = nullptr;
    RealignBanner *m_banner = nullptr;
    QPointer<RealignWizard> m_wizard;
    QPointer<QMessageBox> m_offer;
    partwise::RealignOptions m_options;
    HelperRealign m_helper;
    QSet<QString> m_asked;       // disks whose interrupted realignment was already offered
    QStringList m_waitingOffers; // found while another offer or a wizard was open
};

// Call once after installEditing(): the realignment half of the window.
RealignController *installRealign(MainWindow *window, EditingController *editing);
