#include "mount/encryptionactions.h"

#include "disklistmodel.h"
#include "diskmapwidget.h"
#include "editing/editingcontroller.h"
#include "mount/mountactions.h"
#include "mount/partitionmounter.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QTreeView>

#include <string.h>

using namespace partwise;

namespace {

bool isLuks(const PartitionInfo &partition)
{
    if (partition.filesystem == QLatin1String("crypto_LUKS"))
        return true;
    for (const StorageLayer &layer : partition.layers)
        if (layer.type == QLatin1String("crypto_LUKS"))
            return true;
    return false;
}

void wipe(QString *text)
{
    if (!text->isEmpty())
        ::explicit_bzero(text->data(), size_t(text->size()) * sizeof(QChar));
    text->clear();
}

} // namespace

EncryptionActions *EncryptionActions::install(MainWindow *window, MountActions *mount)
{
    return new EncryptionActions(window, mount);
}

EncryptionActions::EncryptionActions(MainWindow *window, MountActions *mount)
    : QObject(mount), m_window(window), m_mount(mount)
{
    m_open = new QAction(tr("Open Encr&yption…"), this);
    m_open->setObjectName(QStringLiteral("openEncryptionAction"));
    m_open->setToolTip(tr("Unlock the selected LUKS partition with its passphrase"));
    m_close = new QAction(tr("Close Encry&ption"), this);
    m_close->setObjectName(QStringLiteral("closeEncryptionAction"));
    m_close->setToolTip(tr("Lock the selected LUKS partition again"));
    connect(m_open, &QAction::triggered, this, &EncryptionActions::openEncryption);
    connect(m_close, &QAction::triggered, this, &EncryptionActions::closeEncryption);
    mount->menu()->addSeparator();
    mount->menu()->addActions({m_open, m_close});
    for (QWidget *widget : {static_cast<QWidget *>(window->diskMap()),
                            static_cast<QWidget *>(window->partitionView())})
        widget->addActions({m_open, m_close});
    connect(window->regionSelection(), &QItemSelectionModel::currentChanged, this,
            &EncryptionActions::updateActions);
    connect(window, &MainWindow::diskShown, this, &EncryptionActions::updateActions);
    updateActions();
}

void EncryptionActions::updateActions()
{
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    const std::optional<PartitionInfo> region = m_window->editing()->selectedRegion();
    QString why;
    if (row < 0 || !region || region->isFree() || !isLuks(*region))
        why = tr("Select a LUKS partition.");
    else
        why = m_mount->mounter()->unavailableReason(m_window->diskList()->entry(row));
    for (QAction *a : {m_open, m_close}) {
        a->setEnabled(why.isEmpty());
        a->setStatusTip(why.isEmpty() ? wayOfActions() : why);
    }
}

QString EncryptionActions::wayOfActions() const
{
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    if (row >= 0 && m_mount->mounter()->goesThroughUdisks(m_window->diskList()->entry(row),
                                                          QStringLiteral("lock")))
        return PartitionMounter::udisksWay();
    const bool helper = row >= 0 && !m_window->diskList()->entry(row).machine.isEmpty();
    return helper ? tr("Goes through the administrator's helper (libcryptsetup, as root).")
                  : tr("Runs in this window, which runs as root (libcryptsetup).");
}

void EncryptionActions::openEncryption()
{
    bool ok = false;
    QString passphrase = QInputDialog::getText(m_window, tr("Open Encryption"),
                                               tr("Passphrase for the LUKS partition:"),
                                               QLineEdit::Password, QString(), &ok);
    if (ok && !passphrase.isEmpty())
        unlockWith(passphrase);
    wipe(&passphrase);
}

void EncryptionActions::unlockWith(QString passphrase)
{
    run(QStringLiteral("unlock"), &passphrase);
}

void EncryptionActions::closeEncryption()
{
    run(QStringLiteral("lock"), nullptr);
}

void EncryptionActions::run(const QString &method, QString *passphrase)
{
    const int row = m_window->diskList()->rowOf(m_window->currentPath());
    const std::optional<PartitionInfo> region = m_window->editing()->selectedRegion();
    if (row < 0 || !region || region->number <= 0) {
        if (passphrase)
            wipe(passphrase);
        return;
    }
    const DiskEntry entry = m_window->diskList()->entry(row);
    QJsonObject extra;
    if (passphrase) {
        extra.insert(QStringLiteral("passphrase"), *passphrase);
        wipe(passphrase);
    }
    QPointer<EncryptionActions> self(this);
    m_mount->mounter()->call(entry, method, region->number, extra,
                             [self, method, path = entry.path](const HelperReply &reply) {
                                 if (!self)
                                     return;
                                 self->m_window->reread(path);
                                 self->report(reply, method);
                             });
}

void EncryptionActions::report(const HelperReply &reply, const QString &method)
{
    if (!reply.ok()) {
        emit finished(false, reply.error);
        QMessageBox::warning(m_window, tr("Partwise"), reply.error);
        return;
    }
    const QJsonObject result = reply.result;
    const QString mapper = result.value(QStringLiteral("mapper_path")).toString();
    const QString inside = result.value(QStringLiteral("filesystem")).toString();
    const QString device = result.value(QStringLiteral("device")).toString();
    QString message;
    if (method == QLatin1String("lock"))
        message = tr("Locked %1.").arg(device);
    else if (inside.isEmpty())
        message = tr("Unlocked %1 as %2; no filesystem found inside.").arg(device, mapper);
    else
        message =
            tr("Unlocked %1 as %2: %3 inside (label \"%4\").")
                .arg(device, mapper, inside, result.value(QStringLiteral("label")).toString());
    const QString way = reply.result.value(QStringLiteral("via")).toString().isEmpty()
                            ? wayOfActions()
                            : PartitionMounter::wayTaken(reply, QString());
    m_window->statusBar()->showMessage(message + QLatin1Char(' ') + way);
    emit finished(true, message);
}
