// Edit → Apply: the person's confirmation, the run (in this process or through the disk's
// helper), and when a partition it touches is in use, Unmount and Continue and the mount back.
#include "editing/editingcontroller.h"

#include "editing/applyconfirmation.h"
#include "editing/applydialog.h"
#include "editing/editingtext.h"
#include "editing/lastapplyundo.h"
#include "editing/pendingoperations.h"
#include "journalpreferences.h"
#include "ops/operationboot.h"

#include <QAction>
#include <QCheckBox>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>
#include <QUndoStack>

#include <algorithm>

using namespace partwise;

bool EditingController::confirmApply(const QString &question, bool breaksBoot,
                                     bool *acceptBootChange)
{
    // Apply and Cancel, Cancel the default: a write is never one careless Enter away. (The
    // buttons keep their Yes/No roles, which is what exec() answers.)
    QMessageBox box(breaksBoot ? QMessageBox::Warning : QMessageBox::Question,
                    tr("Apply Pending Operations"), question, QMessageBox::Yes | QMessageBox::No,
                    m_window);
    QAbstractButton *yes = box.button(QMessageBox::Yes);
    yes->setText(tr("&Apply"));
    box.button(QMessageBox::No)->setText(tr("Cancel"));
    box.setDefaultButton(QMessageBox::No);
    box.setEscapeButton(QMessageBox::No);
    QCheckBox *accept = nullptr;
    if (breaksBoot) {
        box.setObjectName(QStringLiteral("applyBootQuestion"));
        accept = new QCheckBox(tr("I will repair booting as shown and accept the &change"));
        accept->setObjectName(QStringLiteral("acceptBootChange"));
        box.setCheckBox(accept);
        yes->setEnabled(false);
        connect(accept, &QCheckBox::toggled, yes, &QAbstractButton::setEnabled);
    }
    if (box.exec() != QMessageBox::Yes || (accept && !accept->isChecked()))
        return false;
    *acceptBootChange = accept != nullptr;
    return true;
}

void EditingController::apply()
{
    PendingOperations *queue = pending();
    if (!queue || queue->isEmpty() || !m_base)
        return;
    if (!m_preview.ok) {
        warn(tr("Apply"), tr("The queue cannot be applied: %1").arg(m_preview.error));
        return;
    }
    const QString path = m_path;
    // What the moves do to booting, from what boots from the disk as read; Apply (or the
    // helper) reads the disk again and refuses a broken loader that was not accepted.
    OperationsBootEffect boot;
    if (const auto inventory = m_hooks.currentBoot ? m_hooks.currentBoot() : std::nullopt)
        boot = bootEffectOfOperations(*inventory, *m_base, m_preview.moves);
    const QString question =
        ApplyConfirmation::question(path, shownName(), queue->operations(), *m_base) +
        ApplyConfirmation::stepsText(m_preview) + ApplyConfirmation::bootText(boot);
    bool acceptBootChange = false;
    if (!confirmApply(question, boot.breaksBoot(), &acceptBootChange))
        return;
    ApplyOptions options;
    options.acceptBootChange = acceptBootChange;
    options.policy = m_hooks.policy ? m_hooks.policy() : AlignmentPolicy();
    options.journalFolder = JournalPreferences::folder();
    if (m_base->device.isImage)
        options.forcedSectorSize = m_base->device.topology.logicalSectorSize;
    runApply(path, options, false);
}

void EditingController::runApply(const QString &path, const ApplyOptions &options, bool retried)
{
    PendingOperations *queue = m_queues.value(path);
    if (!queue || queue->isEmpty())
        return;
    const QList<Operation> operations = queue->operations();
    std::unique_ptr<ApplyDialog> dialog;
    if (m_makeApplyDialog)
        dialog = m_makeApplyDialog(path, operations, options, m_window);
    if (!dialog)
        dialog = std::make_unique<ApplyDialog>(path, operations, options, m_window);
    dialog->exec();
    const ApplyResult result = dialog->result();
    m_lastApply->record(path, operations, result, !server(path).isEmpty());
    // Once anything was written the queue no longer describes the disk: it is re-read.
    if (result.ok || result.completed > 0)
        queue->clear();
    emit applied(path, result.ok);
    if (m_hooks.reread)
        m_hooks.reread(path);
    if (retried && m_inUse.finished)
        m_inUse.finished(path, result);
    else if (!result.ok && result.inUse && m_inUse.release)
        offerUnmount(path, options, result);
}

void EditingController::offerUnmount(const QString &path, const ApplyOptions &options,
                                     const ApplyResult &refused)
{
    const QList<Operation> operations = m_queues.value(path)->operations();
    // A table change needs the whole disk free; work inside partitions only those partitions.
    QList<int> numbers;
    for (const Operation &op : operations) {
        if (op.changesTable()) {
            numbers.clear();
            break;
        }
        if (!numbers.contains(op.number))
            numbers << op.number;
    }
    QMessageBox box(QMessageBox::Warning, tr("Apply Pending Operations"),
                    tr("Partitions of %1 that the queue changes are in use, so nothing was "
                       "written.")
                        .arg(shownName()),
                    QMessageBox::Cancel, m_window);
    box.setObjectName(QStringLiteral("applyInUse"));
    box.setInformativeText(tr("Partwise can unmount them (or turn their swap off), apply the "
                              "queue, and offer to mount them back afterwards. It never forces "
                              "an unmount."));
    box.setDetailedText(refused.error);
    QPushButton *unmount = box.addButton(tr("&Unmount and Continue"), QMessageBox::AcceptRole);
    unmount->setObjectName(QStringLiteral("applyUnmount"));
    box.exec();
    if (box.clickedButton() != unmount)
        return;
    QPointer<EditingController> self(this);
    m_inUse.release(path, numbers, [self, path, options](bool ok, const QString &message) {
        if (!self)
            return;
        if (ok) {
            self->runApply(path, options, true);
            return;
        }
        QMessageBox failed(QMessageBox::Warning, tr("Unmount and Continue"), message,
                           QMessageBox::Ok, self->m_window);
        failed.setObjectName(QStringLiteral("applyUnmountFailed"));
        failed.exec();
        // What was freed before the refusal may be mounted back.
        ApplyResult none;
        none.error = message;
        if (self->m_inUse.finished)
            self->m_inUse.finished(path, none);
    });
}
