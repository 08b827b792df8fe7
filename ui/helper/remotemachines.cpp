#include "remotemachines.h"

#include "connectdialog.h"
#include "disklistmodel.h"
#include "report/layoutjson.h"
#include "table/diskreader.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QJsonArray>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

RemoteMachines::RemoteMachines(MainWindow *window) : QObject(window), m_window(window)
{
    auto *action = new QAction(tr("Connect to &Machine…"), this);
    action->setObjectName(QStringLiteral("connectAction"));
    connect(action, &QAction::triggered, this, &RemoteMachines::chooseMachine);
    window->addFileAction(action);
}

void RemoteMachines::chooseMachine()
{
    ConnectDialog dialog(m_window);
    if (dialog.exec() == QDialog::Accepted)
        connectTo(dialog.target());
}

void RemoteMachines::connectTo(const SshTarget &target)
{
    const HelperConnection::Command command = sshHelperCommand(target);
    delete m_connections.take(command.machine); // its input closes: a job there stops safely
    auto *helper = new HelperConnection(command, this);
    m_connections.insert(command.machine, helper);
    connect(helper, &HelperConnection::ready, this, [this, helper] { listDisks(helper); });
    connect(helper, &HelperConnection::died, this,
            [this, helper, target](const QString &why) { onDied(helper, target, why); });
    m_window->statusBar()->showMessage(tr("Connecting to %1…").arg(target.destination));
    helper->start();
}

void RemoteMachines::listDisks(HelperConnection *helper)
{
    helper->call(QStringLiteral("list-disks"), {},
                 [this, helper](const QJsonObject &result, const QString &error) {
                     if (!error.isEmpty()) {
                         m_window->statusBar()->showMessage(error);
                         return;
                     }
                     QStringList paths;
                     for (const QJsonValue &disk : result.value(QStringLiteral("disks")).toArray())
                         paths << disk.toString();
                     DiskListModel *disks = m_window->diskList();
                     for (const QString &key : disks->setMachineDisks(helper->machine(), paths))
                         disks->markReading(disks->rowOf(key));
                     readNext(helper, paths);
                 });
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
    const QJsonObject params{{QStringLiteral("path"), devicePath}};
    helper->call(
        QStringLiteral("read-disk"), params,
        [this, helper, devicePath, devicePaths](const QJsonObject &result, const QString &error) {
            const QString key = DiskListModel::machineKey(helper->machine(), devicePath);
            m_window->diskList()->setResult(key, readResult(result, error));
            if (helper->isReady())
                readNext(helper, devicePaths);
        });
}

DiskReadResult RemoteMachines::readResult(const QJsonObject &result, const QString &error) const
{
    DiskReadResult read;
    read.error = error;
    if (error.isEmpty()) {
        QString invalid;
        read.ok = layoutFromJson(result.value(QStringLiteral("layout")).toObject(), &read.layout,
                                 &invalid);
        if (!read.ok)
            read.error = tr("The helper sent a layout this window cannot use: %1").arg(invalid);
    }
    return read;
}

void RemoteMachines::onDied(HelperConnection *helper, const SshTarget &target, const QString &why)
{
    const QString machine = helper->machine();
    DiskReadResult lost;
    lost.error = why;
    for (const QString &key : m_window->diskList()->keysOf(machine))
        m_window->diskList()->setResult(key, lost);
    emit machineLost(machine, why);
    if (m_notice)
        m_notice->deleteLater();
    m_notice = new QMessageBox(QMessageBox::Warning, tr("Connection Lost"),
                               tr("Partwise lost the connection to %1.").arg(machine),
                               QMessageBox::Close, m_window);
    m_notice->setObjectName(QStringLiteral("helperDiedNotice"));
    m_notice->setInformativeText(why);
    QPushButton *again = m_notice->addButton(tr("Connect &Again"), QMessageBox::AcceptRole);
    again->setObjectName(QStringLiteral("reconnectButton"));
    m_notice->setAttribute(Qt::WA_DeleteOnClose);
    connect(again, &QPushButton::clicked, this, [this, target] { connectTo(target); });
    m_notice->open();
}

RemoteMachines *installRemoteMachines(MainWindow *window)
{
    return new RemoteMachines(window);
}
