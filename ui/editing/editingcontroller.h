#pragma once

#include "align/alignmentpolicy.h"
#include "backgroundjob.h"
#include "boot/bootinventory.h"
#include "fs/sessionabilities.h"
#include "ops/applyrunner.h"
#include "ops/operationpreview.h"
#include "table/disklayout.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>

class ApplyDialog;
class LastApplyUndo;
class PendingOperations;
class PendingOperationsDock;
class QAction;
class QItemSelectionModel;
class QMainWindow;
class QMenu;
class QUndoGroup;
class QWidget;

// What the editing half needs from a window, so it works with any QMainWindow.
struct EditingHooks
{
    std::function<QString()> currentPath; // the disk on screen
    std::function<std::optional<partwise::DiskLayout>()>
        currentLayout;                          // that disk as read, when ready
    std::function<QString()> notEditableReason; // optional: why a disk on screen has no layout
    // optional: what boots from that disk, read with it (Apply says what its moves do to it)
    std::function<std::optional<partwise::BootInventory>()> currentBoot;
    std::function<partwise::AlignmentPolicy()> policy;                  // from the preferences
    std::function<void(const partwise::DiskLayout &layout)> showLayout; // map and list show this
    std::function<void(const QString &path)> reread;                    // after Apply
    std::function<QString(const QString &path)> diskName; // optional: "/dev/sdb on server"
    std::function<partwise::DiskLayout()>
        displayedLayout;                      // optional: what the selection rows index now
    QItemSelectionModel *selection = nullptr; // rows are the shown layout's regions
    QList<QWidget *> contextMenuWidgets;      // get the editing actions as context menu
    bool previewNoticeInStatusBar = true;     // "Preview: … nothing has been written yet"
    // optional: who reads and writes a disk ("" this window, else the helper's machine) and the
    // path it knows the disk by. A paste runs where its target is written, so its source must
    // be served by the same one. Without it every disk is this window's.
    std::function<QString(const QString &path, QString *pathThere)> servedBy;
};

// The editing actions, the Edit menu, the pending-operations dock and one queue per disk.
// Every change is queued (and checked by a libparted preview first); the window shows the
// preview of the queue; Apply runs it through ApplyDialog and re-reads the disk.
class EditingController : public QObject
{
    Q_OBJECT

public:
    enum class Action {
        NewTable,
        Create,
        Resize,
        Delete,
        Format,
        SetLabel,
        SetName,
        Flags,
        Check,
        Copy,
        Paste,
        NewUuid,          // in the Partition menu (ui/mount), as GParted has it
        NewPartitionGuid, // likewise
        Undo,
        Redo,
        Clear,
        SavePlan,
        LoadPlan,
        Apply
    };

    // Adds the Edit menu (after File), the dock and the context menus to `window`.
    static EditingController *install(QMainWindow *window, const EditingHooks &hooks);

    QAction *action(Action which) const { return m_actions.value(int(which)); }
    QMenu *editMenu() const { return m_menu; }
    PendingOperationsDock *dock() const { return m_dock; }
    QUndoGroup *undoGroup() const { return m_group; }
    // Edit → Undo Last Apply… (its action, and what a realignment tells it)
    LastApplyUndo *lastApplyUndo() const { return m_lastApply; }

    // The queue of the disk on screen (nullptr when no disk is ready).
    PendingOperations *pending() const;
    // Before a realignment, which works on the disk as it is: when edits are queued for the
    // disk on screen, says they must be applied or cleared first (a notice over the window)
    // and returns true.
    bool refuseRealignWhilePending();
    PendingOperations *pendingFor(const QString &path);
    // The layout on screen: the disk as read, or the preview of its queue.
    const partwise::DiskLayout &shownLayout() const { return m_shown; }
    const partwise::PreviewResult &lastPreview() const { return m_preview; }
    std::optional<partwise::PartitionInfo> selectedRegion() const;

    // Queues `op` when the preview of the queue plus `op` succeeds; otherwise says why
    // (in a message box unless `error` is given) and returns false.
    bool queue(const partwise::Operation &op, QString *error = nullptr);
    bool savePlanTo(const QString &path, QString *error) const;
    // Makes the dialog that writes a disk's queue; null means an ApplyDialog writing it from
    // this process. Another machine's disks get one that sends the queue to its helper.
    using ApplyDialogMaker = std::function<std::unique_ptr<ApplyDialog>(
        const QString &path, const QList<partwise::Operation> &operations,
        const partwise::ApplyOptions &options, QWidget *parent)>;
    void setApplyDialogMaker(ApplyDialogMaker maker) { m_makeApplyDialog = std::move(maker); }
    // Measures a filesystem on a disk a helper reads (device.readByHelper), for Resize; such
    // disks are not offered for resizing without it.
    using HelperMeasurer = std::function<void(
        const QString &path, int number, std::function<void(partwise::FilesystemLimits)> done)>;
    void setHelperMeasurer(HelperMeasurer measure) { m_measureThroughHelper = std::move(measure); }
    bool loadPlanFrom(const QString &path, QString *error);
    // "Unmount and Continue" when Apply is refused because something it touches is in use (set
    // by ui/mount): `release` frees partitions `numbers` of the disk `path` (every partition when
    // empty) and says how that went; Apply then runs again, and `finished` hears how it ended,
    // to offer mounting back what was freed.
    struct InUseHandler
    {
        using Done = std::function<void(bool ok, const QString &message)>;
        std::function<void(const QString &path, const QList<int> &numbers, const Done &done)>
            release;
        std::function<void(const QString &path, const partwise::ApplyResult &result)> finished;
    };
    void setInUseHandler(InUseHandler handler) { m_inUse = std::move(handler); }

public slots:
    // The window has shown (or re-read) a disk: its queue's preview replaces it on screen.
    void diskShown();

    void newTable();
    void createPartition();
    void resizePartition();
    void deletePartition();
    void format();
    void setLabel();
    void setName();
    void editFlags();
    void check();
    // Copy remembers the selected partition (one with a filesystem, on the disk as read);
    // Paste places a copy of it in the selected free space of any open disk.
    void copyPartition();
    void pastePartition();
    void newUuid();
    void newPartitionGuid();
    void clearQueue();
    void savePlan();
    void loadPlan();
    void apply();

protected:
    // Asks before the window closes with operations still queued.
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    // The shown layout changed because the queue did.
    void previewChanged();
    void applied(const QString &path, bool ok);

private:
    EditingController(QMainWindow *window, const EditingHooks &hooks);
    void createActions();
    void refreshPreview(bool windowShowsDiskAsRead);
    QString shownName() const;                   // of the disk on screen, as people call it
    QString quitName(const QString &path) const; // of a disk with a queue, when quitting
    void updateActions();
    void updatePasteActions(const std::optional<partwise::PartitionInfo> &region, bool hasTable);
    // Why the selected region cannot be copied; empty when it can (read-only disks too).
    QString copyProblem(const std::optional<partwise::PartitionInfo> &region) const;
    // Why the remembered partition cannot be pasted into `region` of the disk on screen; empty
    // when it can.
    QString pasteProblem(const partwise::PartitionInfo &region) const;
    // How far the copied partition's filesystem shrinks (its tool's minimum, by this session
    // or the helper that reads its disk), measured in the background after Copy; until it is
    // known a paste is at least as large as its source.
    void measureCopiedShrink();
    QString server(const QString &path, QString *pathThere = nullptr) const;
    void selectNear(const partwise::PartitionInfo &previous);
    std::optional<partwise::PartitionInfo>
    regionAtSelection(const partwise::DiskLayout &layout) const;
    void warn(const QString &title, const QString &text);
    // Asks before Apply writes; where a move stops a loader working, only with a tick that the
    // person accepts it (`acceptBootChange`), as the realignment wizard asks.
    bool confirmApply(const QString &question, bool breaksBoot, bool *acceptBootChange);
    // Writes `path`'s queue as confirmed; `retried`: after Unmount and Continue.
    void runApply(const QString &path, const partwise::ApplyOptions &options, bool retried);
    void offerUnmount(const QString &path, const partwise::ApplyOptions &options,
                      const partwise::ApplyResult &refused);

    QMainWindow *m_window;
    EditingHooks m_hooks;
    QUndoGroup *m_group = nullptr;
    LastApplyUndo *m_lastApply = nullptr;
    PendingOperationsDock *m_dock = nullptr;
    QMenu *m_menu = nullptr;
    QHash<int, QAction *> m_actions;
    QHash<QString, PendingOperations *> m_queues;
    QString m_path;
    std::optional<partwise::DiskLayout> m_base;
    partwise::DiskLayout m_shown;
    partwise::PreviewResult m_preview;
    bool m_showingPreview = false;
    int m_selectAfterQueue = 0; // the partition a queued operation changes, while it is pushed
    ApplyDialogMaker m_makeApplyDialog;
    HelperMeasurer m_measureThroughHelper;
    std::optional<partwise::Operation> m_copied; // a Paste with its source, from Copy
    QString m_copiedServer;                      // who reads the copied partition's disk
    InUseHandler m_inUse;
    quint64 m_copies = 0;          // Copies made: a measurement counts for the one it was made for
    BackgroundJob m_measuringCopy; // last: waited for before anything its result goes to is gone
};
