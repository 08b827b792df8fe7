#include "remotemachines.h"

#include "cli/jsonrpcline.h"
#include "connectdialog.h"
#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "helperapplydialog.h"
#include "helpercopybackend.h"
#include "helperdiskread.h"
#include "helperproberunner.h"
#include "helperrealignbackend.h"
#include "localhelpercommands.h"
#include "table/diskreader.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QJsonArray>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

#include <unistd.h>

using namespace partwise;

RemoteMachines::RemoteMachines(MainWindow *window) : QObject(window), m_window(window)
{
    if (::geteuid() != 0) {
        // The window runs as a user: this computer's disks are opened through a root helper.
        m_thisMachine = new QAction(tr("Open This Computer's &Disks…"), this);
        m_thisMachine->setObjectName(QStringLiteral("openSystemDisksAction"));
        m_thisMachine->setToolTip(
            tr("Asks for an administrator's password and shows this computer's disks"));
        connect(m_thisMachine, &QAction::triggered, this, &RemoteMachines::connectToThisMachine);
        window->addFileAction(m_thisMachine);
        // Refresh leaves this computer's disks alone until they are asked for: this process
        // cannot open them (connectToThisMachine() hands Refresh to the root helper).
        window->setSystemDiskScanner([] {});
        // And the user's own images through a helper that runs as the user.
        m_imagesCommand = userHelperCommand();
        window->setImageOpener([this](const QString &path, qint64 forcedSectorSize) {
            return openImage(path, forcedSectorSize);
        });
    }
    auto *action = new QAction(tr("Connect to &Machine…"), this);
    action->setObjectName(QStringLiteral("connectAction"));
    connect(action, &QAction::triggered, this, &RemoteMachines::chooseMachine);
    window->addFileAction(action);
    connect(window, &MainWindow::rereadOnMachine, this,
            [this](const QString &machine, const QString &devicePath) {
                // The user's own helper is started again if it ended; it then reads them all.
                HelperConnection *helper = machine == m_imagesCommand.machine
                                               ? imagesHelper()
                                               : m_connections.value(machine);
                if (helper && helper->isReady())
                    readDisk(helper, devicePath, [] {});
            });
    window->setHelperProbe([this](const QString &machine, const QString &devicePath) {
        HelperConnection *helper = m_connections.value(machine);
        return helper && helper->isReady() ? new HelperProbeRunner(helper, devicePath) : nullptr;
    });
    if (EditingController *editing = window->editing()) {
        editing->setApplyDialogMaker(
            [this](const QString &path, const QList<Operation> &ops, const ApplyOptions &options,
                   QWidget *parent) { return makeApplyDialog(path, ops, options, parent); });
        editing->setHelperMeasurer([this](const QString &path, int number, auto done) {
            measureFilesystem(path, number, std::move(done));
        });
    }
}

void RemoteMachines::measureFilesystem(const QString &path, int number,
                                       const std::function<void(FilesystemLimits)> &done, int tries)
{
    const int row = m_window->diskList()->rowOf(path);
    HelperConnection *helper =
        row >= 0 ? m_connections.value(m_window->diskList()->entry(row).machine) : nullptr;
    if (!helper || !helper->isReady()) {
        done({}); // the dialog then keeps the filesystem's current size
        return;
    }
    const QJsonObject params{{QStringLiteral("path"), m_window->diskList()->entry(row).devicePath},
                             {QStringLiteral("partition"), number}};
    QPointer<RemoteMachines> self(this);
    helper->call(QStringLiteral("filesystem-minimum"), params, [=](const HelperReply &reply) {
        // A job of the window's (a probe, a read) still runs there: asked again shortly, so
        // the dialog learns what that session can do instead of offering everything.
        if (reply.code == jsonrpc::Busy && tries > 1 && self) {
            QTimer::singleShot(250, self,
                               [=] { self->measureFilesystem(path, number, done, tries - 1); });
            return;
        }
        FilesystemLimits limits;
        const QJsonValue bytes = reply.result.value(QStringLiteral("minimum_bytes"));
        if (reply.ok() && bytes.isDouble())
            limits.minimumBytes = qint64(bytes.toDouble());
        // The helper's session resizes it: what it cannot do is not offered. An older helper
        // that does not say is left to refuse at Apply, before anything is written.
        const QJsonValue shrink = reply.result.value(QStringLiteral("cannot_shrink"));
        const QJsonValue grow = reply.result.value(QStringLiteral("cannot_grow"));
        if (reply.ok() && shrink.isString() && grow.isString())
            limits.here = ResizeAbilities{shrink.toString(), grow.toString()};
        done(limits);
    });
}

std::unique_ptr<ApplyDialog> RemoteMachines::makeApplyDialog(const QString &path,
                                                             const QList<Operation> &operations,
                                                             const ApplyOptions &options,
                                                             QWidget *parent) const
{
    const int row = m_window->diskList()->rowOf(path);
    if (row < 0 || m_window->diskList()->entry(row).machine.isEmpty())
        return nullptr; // this machine's disk or image: written here
    const DiskEntry &entry = m_window->diskList()->entry(row);
    // A machine whose connection is gone gets a dialog that says so and writes nothing.
    return std::make_unique<HelperApplyDialog>(m_connections.value(entry.machine), entry.devicePath,
                                               operations, options, parent);
}

RealignBackend *RemoteMachines::realignBackend(const QString &key)
{
    const int row = m_window->diskList()->rowOf(key);
    if (row < 0)
        return nullptr;
    const DiskEntry &entry = m_window->diskList()->entry(row);
    HelperConnection *helper = m_connections.value(entry.machine);
    return helper && helper->isReady() ? new HelperRealignBackend(helper, entry.devicePath)
                                       : nullptr;
}

CopyBackend *RemoteMachines::copyBackend(const QString &machine)
{
    HelperConnection *helper = m_connections.value(machine);
    return helper && helper->isReady() ? new HelperCopyBackend(helper) : nullptr;
}

QString RemoteMachines::interruptedJournal(const QString &key) const
{
    return m_interrupted.value(key);
}

QString RemoteMachines::interruptedCopy(const QString &key) const
{
    return m_interruptedCopies.value(key);
}

HelperRealign RemoteMachines::realignThroughHelpers()
{
    return {[this](const QString &key) { return realignBackend(key); },
            [this](const QString &key) { return interruptedJournal(key); }};
}

void RemoteMachines::chooseMachine()
{
    ConnectDialog dialog(m_window);
    if (dialog.exec() == QDialog::Accepted)
        connectTo(dialog.target());
}

int RemoteMachines::openImage(const QString &path, qint64 forcedSectorSize)
{
    const int row =
        m_window->diskList()->addMachineImage(m_imagesCommand.machine, path, forcedSectorSize);
    m_window->diskList()->markReading(row);
    if (HelperConnection *helper = imagesHelper())
        readDisk(helper, path, [] {});
    return row;
}

HelperConnection *RemoteMachines::imagesHelper()
{
    HelperConnection *helper = m_connections.value(m_imagesCommand.machine);
    if (helper && helper->isReady())
        return helper;
    // Started (again, after it ended): once ready, it reads every image waiting for it.
    if (!helper || helper->hasEnded())
        connectWith(m_imagesCommand);
    return nullptr;
}

void RemoteMachines::connectTo(const SshTarget &target)
{
    m_window->statusBar()->showMessage(tr("Connecting to %1…").arg(target.destination));
    connectWith(sshHelperCommand(target));
}

void RemoteMachines::connectToThisMachine()
{
    const HelperConnection::Command command = adminHelperCommand();
    // From now on Refresh lists this computer's disks through the helper, or starts it again.
    m_window->setSystemDiskScanner([this, machine = command.machine] {
        HelperConnection *helper = m_connections.value(machine);
        if (helper && helper->isReady())
            listDisks(helper);
        else
            connectToThisMachine();
    });
    m_window->statusBar()->showMessage(tr("Starting the helper for this computer's disks…"));
    connectWith(command);
}

void RemoteMachines::connectWith(const HelperConnection::Command &command)
{
    delete m_connections.take(command.machine); // its input closes: a job there stops safely
    auto *helper = new HelperConnection(command, this);
    m_connections.insert(command.machine, helper);
    connect(helper, &HelperConnection::ready, this, [this, helper] {
        if (helper->machine() == m_imagesCommand.machine)
            readImages(helper);
        else
            listDisks(helper);
    });
    connect(helper, &HelperConnection::died, this,
            [this, helper, command](const QString &why) { onDied(helper, command, why); });
    helper->start();
}

void RemoteMachines::listDisks(HelperConnection *helper)
{
    helper->call(QStringLiteral("list-disks"), {}, [this, helper](const HelperReply &reply) {
        if (!reply.ok()) {
            m_window->statusBar()->showMessage(reply.error);
            return;
        }
        QStringList paths;
        const QJsonArray disks = reply.result.value(QStringLiteral("disks")).toArray();
        for (const QJsonValue &disk : disks)
            paths << disk.toString();
        m_window->diskList()->setMachineDisks(helper->machine(), paths);
        readNext(helper, paths);
    });
}

void RemoteMachines::readImages(HelperConnection *helper)
{
    QStringList paths;
    for (const QString &key : m_window->diskList()->keysOf(helper->machine()))
        paths << m_window->diskList()->entry(m_window->diskList()->rowOf(key)).devicePath;
    readNext(helper, paths);
}

void RemoteMachines::readNext(HelperConnection *helper, QStringList devicePaths)
{
    if (devicePaths.isEmpty()) {
        m_window->statusBar()->clearMessage();
        emit machineRead(helper->machine());
        return;
    }
    // One at a time: the helper reads synchronously, and a machine with many disks shows
    // each as soon as it is read.
    const QString devicePath = devicePaths.takeFirst();
    readDisk(helper, devicePath, [this, helper, devicePaths] {
        if (helper->isReady())
            readNext(helper, devicePaths);
    });
}

void RemoteMachines::readDisk(HelperConnection *helper, const QString &devicePath,
                              const std::function<void()> &then)
{
    const QString key = DiskListModel::machineKey(helper->machine(), devicePath);
    const int row = m_window->diskList()->rowOf(key);
    if (row >= 0)
        m_window->diskList()->markReading(row);
    const QJsonObject params = readDiskParams(
        devicePath, row >= 0 ? m_window->diskList()->entry(row).forcedSectorSize : 0);
    helper->call(QStringLiteral("read-disk"), params, [this, key, then](const HelperReply &reply) {
        const QString journal =
            reply.result.value(QStringLiteral("interrupted_journal")).toString();
        if (journal.isEmpty())
            m_interrupted.remove(key);
        else
            m_interrupted.insert(key, journal);
        // A failed read names it too: such a disk holds no table until the copy is finished.
        const QString copy = (reply.ok() ? reply.result : reply.data)
                                 .value(QStringLiteral("interrupted_copy"))
                                 .toString();
        if (copy.isEmpty())
            m_interruptedCopies.remove(key);
        else
            m_interruptedCopies.insert(key, copy);
        std::optional<BootInventory> boot;
        const DiskReadResult read = diskReadFromReply(reply, &boot);
        m_window->diskList()->setResult(key, read, boot);
        then();
    });
}

void RemoteMachines::onDied(HelperConnection *helper, const HelperConnection::Command &command,
                            const QString &why)
{
    const QString machine = helper->machine();
    DiskReadResult lost;
    lost.error = why;
    for (const QString &key : m_window->diskList()->keysOf(machine))
        m_window->diskList()->setResult(key, lost);
    emit machineLost(machine, why);
    if (m_notice)
        m_notice->deleteLater();
    // A helper that never answered was never connected: nothing was lost, and trying again
    // at once changes nothing until what `why` names is put right.
    const bool started = helper->wasEverReady();
    m_notice = new QMessageBox(
        QMessageBox::Warning, started ? tr("Connection Lost") : tr("Helper Not Started"),
        started ? tr("Partwise lost the connection to %1.").arg(machine)
                : tr("Partwise could not start the helper for %1.").arg(machine),
        QMessageBox::Close, m_window);
    m_notice->setObjectName(QStringLiteral("helperDiedNotice"));
    m_notice->setInformativeText(why);
    QPushButton *again = m_notice->addButton(tr("Connect &Again"), QMessageBox::AcceptRole);
    again->setObjectName(QStringLiteral("reconnectButton"));
    m_notice->setDefaultButton(
        started ? again : qobject_cast<QPushButton *>(m_notice->button(QMessageBox::Close)));
    m_notice->setAttribute(Qt::WA_DeleteOnClose);
    connect(again, &QPushButton::clicked, this, [this, command] { connectWith(command); });
    m_notice->open();
}

RemoteMachines *installRemoteMachines(MainWindow *window)
{
    return new RemoteMachines(window);
}
