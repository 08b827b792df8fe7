#pragma once

#include "align/alignmentpolicy.h"
#include "boot/bootinventory.h"
#include "device/diskevent.h"
#include "ops/practicedisk.h"
#include "table/disklayout.h"

#include <QHash>
#include <QMainWindow>

#include <functional>
#include <optional>

class DiskEventSource;
class DiskListModel;
class DiskMapWidget;
class DiskService;
class EditingController;
class InfoPanel;
class PartitionModel;
class ProbeRunner;
class QAction;
class QComboBox;
class QItemSelectionModel;
class QLabel;
class QMenu;
class QToolBar;
class QSortFilterProxyModel;
class QTimer;
class QTreeView;
struct DiskEntry;
namespace partwise {
struct DiskReadResult;
} // namespace partwise

// The window people open: a device chooser, the disk map, the partition list and the
// sector info dock, with a status line saying how many partitions are misaligned.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens (or re-reads) an image and shows it; reading happens on the worker thread.
    void openImage(const QString &path, qint64 forcedSectorSize = 0);
    // Lists the machine's disks and reads them.
    void scanDisks();
    // Where this machine's disks come from when the window cannot open them itself (it runs
    // as a user): scanDisks() and Refresh ask `scan` instead.
    void setSystemDiskScanner(std::function<void()> scan) { m_scanSystemDisks = std::move(scan); }
    // Opens an image file elsewhere (a helper run as the user) instead of in this process:
    // called with its absolute path and the sector size forced for it; returns the row of the
    // disk list it added (-1: none).
    using ImageOpener = std::function<int(const QString &path, qint64 forcedSectorSize)>;
    void setImageOpener(ImageOpener open) { m_openImage = std::move(open); }
    // Drive → Measure Physical Sector on a disk a helper reads: `make` gives what probes it
    // there (null when that helper is gone).
    using HelperProbeMaker =
        std::function<ProbeRunner *(const QString &machine, const QString &devicePath)>;
    void setHelperProbe(HelperProbeMaker make) { m_helperProbe = std::move(make); }
    // Follows disks plugged in, removed and changed as `source` reports them: the list follows
    // within a fraction of a second (while no dialog is open: Apply and the wizards write
    // disks, and the list waits for them). Pending operations of a disk that goes, turns out
    // to be another disk, or changes size or table outside Partwise are dropped, saying why.
    void followDiskEvents(DiskEventSource *source);
    // Re-reads every image and disk (View → Refresh).
    void refresh();
    // Creates the demo disk in `folder` (kept by the caller for the session) and opens it.
    void openDemoDisk(const QString &folder);
    void createPracticeDisk(const partwise::PracticeDiskSpec &spec);
    // Applies and keeps a new policy; every verdict on screen follows at once.
    void setAlignmentPolicy(const partwise::AlignmentPolicy &policy);
    partwise::AlignmentPolicy alignmentPolicy() const;

    // For the editing half: the disk on screen as read (when read), showing a preview of
    // pending edits in the map and list, and reading a disk again after applying them.
    std::optional<partwise::DiskLayout> currentLayout() const;
    // What boots from that disk, read with it; absent when not read.
    std::optional<partwise::BootInventory> currentBoot() const;
    // Why the disk on screen offers nothing to edit (it could not be read); empty otherwise.
    QString notEditableReason() const;
    void showLayout(const partwise::DiskLayout &layout);
    void reread(const QString &path);

    QString currentPath() const { return m_shownPath; }
    // What people call the disk whose entry is `path` ("/dev/sdb on server"; DiskListModel).
    QString diskName(const QString &path) const;
    QString statusText() const;
    DiskMapWidget *diskMap() const { return m_map; }
    QTreeView *partitionView() const { return m_list; }
    InfoPanel *infoPanel() const { return m_info; }
    // Where features composed from app/ add their panels' toggles.
    QMenu *viewMenu() const { return m_viewMenu; }
    // Adds a feature's action to the File menu, above Quit.
    void addFileAction(QAction *action);
    PartitionModel *partitionModel() const { return m_partitions; }
    QItemSelectionModel *regionSelection() const { return m_selection; }
    // The editing half the window installs (Edit menu, pending operations); for features
    // composed on top of it, such as realignment (app/guimain.cpp).
    EditingController *editing() const { return m_editing; }
    QSortFilterProxyModel *sortedPartitions() const { return m_sorted; }
    DiskListModel *diskList() const { return m_disks; }

signals:
    // The current disk has been shown (read, failed, or re-judged); tests wait for it.
    void diskShown(const QString &path);
    // Another machine's disk is to be read again (after Apply): its helper reads it.
    void rereadOnMachine(const QString &machine, const QString &devicePath);
    // A disk reported changed was found as it was read before (nothing read again); tests wait
    // for it.
    void diskUnchanged(const QString &path);
    // A practice or demo image was created (empty path and an error when not).
    void imageCreated(const QString &path, const QString &error);

private:
    void createActions();
    void createCentralArea();
    void rebuildRecentMenu();
    void showChosenDisk();
    void showEntry(int row);
    void selectFirstInterestingRegion();
    void updateStatus(int row);
    QString readError(const DiskEntry &entry) const;
    void onDiskRead(const QString &path, const partwise::DiskReadResult &result,
                    const std::optional<partwise::BootInventory> &boot, const QString &identity,
                    const QString &shape);
    void takeDiskEvent(const partwise::DiskEvent &event);
    void applyDiskEvents();
    // A disk read again differs from what its queue was planned for (DiskListModel's `why`).
    void changedUnderneath(const QString &path, const QString &why);
    // Drops the pending operations of `path`, if any, telling the person `why`.
    void dropQueue(const QString &path, const QString &why);
    void onImageCreated(const QString &path, const QString &error);
    void measureSector();
    // Measuring is for drives: an image's entry disables it and says why.
    void updateMeasureAction(const DiskEntry &entry);
    void chooseImage();
    void choosePracticeDisk();
    void chooseExportFile();
    void editPreferences();
    void showAbout();
    void reportError(const QString &title, const QString &text);

    DiskService *m_service = nullptr;
    std::function<void()> m_scanSystemDisks;
    ImageOpener m_openImage;
    HelperProbeMaker m_helperProbe;
    DiskListModel *m_disks = nullptr;
    PartitionModel *m_partitions = nullptr;
    QItemSelectionModel *m_selection = nullptr;
    EditingController *m_editing = nullptr;
    QSortFilterProxyModel *m_sorted = nullptr;
    QComboBox *m_chooser = nullptr;
    DiskMapWidget *m_map = nullptr;
    QTreeView *m_list = nullptr;
    InfoPanel *m_info = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_fileMenu = nullptr;
    QAction *m_fileSeparator = nullptr;
    QAction *m_measureAction = nullptr;
    QToolBar *m_toolbar = nullptr;
    QLabel *m_status = nullptr;
    QMenu *m_recentMenu = nullptr;
    QString m_shownPath;
    int m_shownGeneration = -1;
    QList<partwise::DiskEvent> m_diskEvents; // heard, not yet applied to the list
    QHash<QString, QString> m_shapes;        // each disk's size and table when last read
    QTimer *m_diskEventTimer = nullptr;
};
