#pragma once

// Other machines' disks in the window (File → Connect to Machine…). For each machine, a
// HelperConnection runs `partwise-cli serve` there over ssh; its disks are listed and read
// with list-disks and read-disk, and each becomes an entry of the window's disk list
// ("/dev/sda on server"), drawn from the layout the helper sent (report/layoutjson.h) exactly
// as a disk read here would be.
//
// When a helper dies (the connection dropped, the machine rebooted, the helper crashed), its
// disks turn to "cannot be read" with the reason, and a notice says what happened and offers
// to connect again; nothing waits on a machine that is gone.
//
// The disks are edited as this machine's are: the window queues and previews the operations
// on a copy of the table the helper sent, Resize asks the helper how far a filesystem
// shrinks (filesystem-minimum), and Apply sends the queue to the helper
// (helperapplydialog.h), then has it read the disk again. The realignment wizard has the
// helper plan, move and finish (helperrealignbackend.h).

#include "fs/sessionabilities.h"
#include "realign/realigncontroller.h"
#include "sshcommand.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

class ApplyDialog;
class CopyBackend;
class MainWindow;
class QAction;
class QMessageBox;
class RealignBackend;
namespace partwise {
struct ApplyOptions;
struct DiskReadResult;
struct Operation;
} // namespace partwise

class RemoteMachines : public QObject
{
    Q_OBJECT

public:
    explicit RemoteMachines(MainWindow *window);

    // Connects (again) to a machine and lists its disks; replaces an earlier connection to it.
    void connectTo(const SshTarget &target);
    // Starts the helper for this machine's disks as root (localhelpercommands.h), for a window
    // that runs as a user; its disks are listed, read and edited through it.
    void connectToThisMachine();
    // Opens one of the user's image files through the helper run as the user (started on
    // first use); returns its row in the disk list. Installed as the window's image opener
    // when the window runs as a user.
    int openImage(const QString &path, qint64 forcedSectorSize);
    // The name the user's own helper goes by ("host as alice"); empty when the window runs
    // as root and reads images itself.
    QString imagesMachine() const { return m_imagesCommand.machine; }
    HelperConnection *connection(const QString &machine) const
    {
        return m_connections.value(machine);
    }
    // The notice shown when a helper died, while it is open; for tests.
    QMessageBox *deathNotice() const { return m_notice; }
    // The realignment wizard's work for a disk a helper serves (`key` as the disk list has
    // it), done by that helper; null when its helper is not running. The caller owns it.
    RealignBackend *realignBackend(const QString &key);
    // The journal, where the helper runs, of a realignment of that disk that stopped part-way
    // (read-disk says so); empty when there is none.
    QString interruptedJournal(const QString &key) const;
    // A copy onto the disk `key` stopped part-way, as its helper's read-disk said: its journal.
    QString interruptedCopy(const QString &key) const;
    // The two above, for RealignController::setHelperRealign.
    HelperRealign realignThroughHelpers();
    // The Copy Disk wizard's work for disks of `machine` (the disk list's name), done by its
    // helper; null when that helper is not running. The caller owns it.
    CopyBackend *copyBackend(const QString &machine);

signals:
    // Every disk the machine listed has been read (or failed to be).
    void machineRead(const QString &machine);
    void machineLost(const QString &machine, const QString &why);

private:
    std::unique_ptr<ApplyDialog> makeApplyDialog(const QString &path,
                                                 const QList<partwise::Operation> &operations,
                                                 const partwise::ApplyOptions &options,
                                                 QWidget *parent) const;
    void measureFilesystem(const QString &path, int number,
                           const std::function<void(partwise::FilesystemLimits)> &done,
                           int tries = 40);
    void chooseMachine();
    void listDisks(HelperConnection *helper);
    void readNext(HelperConnection *helper, QStringList devicePaths);
    void readImages(HelperConnection *helper);
    // The user's own helper when it is ready; otherwise null, and it is being started.
    HelperConnection *imagesHelper();
    void connectWith(const HelperConnection::Command &command);
    void onDied(HelperConnection *helper, const HelperConnection::Command &command,
                const QString &why);
    void readDisk(HelperConnection *helper, const QString &devicePath,
                  const std::function<void()> &then);

    MainWindow *m_window;
    QHash<QString, HelperConnection *> m_connections;
    QPointer<QMessageBox> m_notice;
    QAction *m_thisMachine = nullptr;            // when the window runs as a user
    HelperConnection::Command m_imagesCommand;   // the user's own helper, for image files
    QHash<QString, QString> m_interrupted;       // entry key -> journal of a realignment cut short
    QHash<QString, QString> m_interruptedCopies; // entry key -> journal of a copy onto it
};

// File → Connect to Machine…, composed into the window from app/.
RemoteMachines *installRemoteMachines(MainWindow *window);
