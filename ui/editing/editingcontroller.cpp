#include "editing/editingcontroller.h"

#include "editing/applyconfirmation.h"
#include "editing/applydialog.h"
#include "editing/createpartitiondialog.h"
#include "editing/editingavailability.h"
#include "editing/editingtext.h"
#include "editing/lastapplyundo.h"
#include "editing/operationdialogs.h"
#include "editing/pendingoperations.h"
#include "editing/pendingoperationsdock.h"
#include "editing/resizepartitiondialog.h"
#include "fs/filesystemuuid.h"
#include "journalpreferences.h"
#include "ops/operationboot.h"
#include "regionnames.h"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>
#include <QUndoGroup>
#include <QUndoStack>

#include <algorithm>

using namespace partwise;

EditingController *EditingController::install(QMainWindow *window, const EditingHooks &hooks)
{
    return new EditingController(window, hooks);
}

EditingController::EditingController(QMainWindow *window, const EditingHooks &hooks)
    : QObject(window), m_window(window), m_hooks(hooks)
{
    setObjectName(QStringLiteral("editingController"));
    m_group = new QUndoGroup(this);
    createActions();
    m_lastApply = new LastApplyUndo(window, {m_hooks.reread, m_hooks.diskName}, this);

    m_dock = new PendingOperationsDock(m_group, window);
    m_dock->setActions(action(Action::Undo), action(Action::Redo), action(Action::Clear),
                       action(Action::SavePlan), action(Action::Apply));
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);

    m_menu = new QMenu(tr("&Edit"), window);
    m_menu->setObjectName(QStringLiteral("editMenu"));
    m_menu->setToolTipsVisible(true); // says why Resize/Move is off for an extended partition
    m_menu->addAction(action(Action::Undo));
    m_menu->addAction(action(Action::Redo));
    m_menu->addAction(m_lastApply->action());
    m_menu->addSeparator();
    const QList<Action> partitionActions = {Action::NewTable, Action::Create, Action::Resize,
                                            Action::Delete,   Action::Format, Action::SetLabel,
                                            Action::SetName,  Action::Flags,  Action::Check,
                                            Action::Copy,     Action::Paste};
    for (Action a : partitionActions)
        m_menu->addAction(action(a));
    m_menu->addSeparator();
    m_menu->addAction(action(Action::Apply));
    m_menu->addAction(action(Action::Clear));
    m_menu->addAction(action(Action::SavePlan));
    m_menu->addAction(action(Action::LoadPlan));
    m_menu->addSeparator();
    m_menu->addAction(m_dock->toggleViewAction());
    const QList<QAction *> top = window->menuBar()->actions();
    window->menuBar()->insertMenu(top.value(1), m_menu); // after File

    for (QWidget *widget : std::as_const(m_hooks.contextMenuWidgets)) {
        widget->setContextMenuPolicy(Qt::ActionsContextMenu);
        for (Action a : partitionActions)
            widget->addAction(action(a));
    }
    if (m_hooks.selection) {
        connect(m_hooks.selection, &QItemSelectionModel::currentChanged, this,
                &EditingController::updateActions);
        connect(m_hooks.selection, &QItemSelectionModel::selectionChanged, this,
                &EditingController::updateActions);
    }
    window->installEventFilter(this);
    refreshPreview(true);
}

bool EditingController::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Close) {
        int waiting = 0;
        QStringList disks;
        for (auto it = m_queues.cbegin(); it != m_queues.cend(); ++it)
            if (!it.value()->isEmpty()) {
                waiting += it.value()->count();
                disks << quitName(it.key());
            }
        const QString names = disks.join(QStringLiteral(", "));
        const QString question =
            waiting == 1 ? tr("1 pending operation on %1 will be lost: nothing has been written "
                              "to the disk yet. Quit anyway?")
                               .arg(names)
                         : tr("%1 pending operations on %2 will be lost: nothing has been "
                              "written yet. Quit anyway?")
                               .arg(waiting)
                               .arg(names);
        if (waiting > 0 &&
            QMessageBox::question(m_window, tr("Discard Pending Operations"), question,
                                  QMessageBox::Discard | QMessageBox::Cancel,
                                  QMessageBox::Cancel) != QMessageBox::Discard) {
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

void EditingController::createActions()
{
    const auto add = [this](Action which, const QString &text, const char *name,
                            void (EditingController::*slot)(), const QKeySequence &keys = {}) {
        auto *a = new QAction(text, this);
        a->setObjectName(QString::fromLatin1(name));
        if (!keys.isEmpty())
            a->setShortcut(keys);
        a->setShortcutContext(Qt::WindowShortcut);
        if (slot)
            connect(a, &QAction::triggered, this, slot);
        m_actions.insert(int(which), a);
        m_window->addAction(a);
        return a;
    };
    add(Action::NewTable, tr("New Partition &Table…"), "newTableAction",
        &EditingController::newTable);
    add(Action::Create, tr("&New Partition…"), "createPartitionAction",
        &EditingController::createPartition, QKeySequence(Qt::Key_Insert));
    add(Action::Resize, tr("Resi&ze/Move…"), "resizePartitionAction",
        &EditingController::resizePartition);
    add(Action::Delete, tr("&Delete Partition"), "deletePartitionAction",
        &EditingController::deletePartition, QKeySequence::Delete);
    add(Action::Format, tr("&Format…"), "formatAction", &EditingController::format);
    add(Action::SetLabel, tr("Filesystem &Label…"), "setLabelAction", &EditingController::setLabel);
    add(Action::SetName, tr("Partition Na&me…"), "setNameAction", &EditingController::setName);
    add(Action::Flags, tr("Fla&gs…"), "flagsAction", &EditingController::editFlags);
    add(Action::Check, tr("C&heck Filesystem…"), "checkAction", &EditingController::check);
    add(Action::Copy, tr("&Copy Partition"), "copyPartitionAction",
        &EditingController::copyPartition, QKeySequence::Copy);
    add(Action::Paste, tr("Pa&ste Partition…"), "pastePartitionAction",
        &EditingController::pastePartition, QKeySequence::Paste);
    add(Action::NewUuid, tr("Ne&w UUID"), "newUuidAction", &EditingController::newUuid);
    add(Action::NewPartitionGuid, tr("New Partition GU&ID"), "newPartitionGuidAction",
        &EditingController::newPartitionGuid);
    add(Action::Clear, tr("Cl&ear Pending Operations"), "clearAction",
        &EditingController::clearQueue);
    add(Action::SavePlan, tr("Save &Plan…"), "savePlanAction", &EditingController::savePlan);
    add(Action::LoadPlan, tr("L&oad Plan…"), "loadPlanAction", &EditingController::loadPlan);
    add(Action::Apply, tr("&Apply Pending Operations"), "applyAction", &EditingController::apply,
        QKeySequence(tr("Ctrl+Return")));

    QAction *undo = m_group->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    m_actions.insert(int(Action::Undo), undo);
    QAction *redo = m_group->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    redo->setShortcut(QKeySequence::Redo);
    m_actions.insert(int(Action::Redo), redo);
    // What Undo covers, said where it is greyed: the queue only, never what Apply wrote.
    const auto undoTips = [undo, redo] {
        undo->setStatusTip(undo->isEnabled()
                               ? QString()
                               : tr("Nothing to undo: Undo takes back pending operations only. "
                                    "What Apply wrote to the table, Undo Last Apply puts back "
                                    "where that is honest; the log and the table backup say "
                                    "how to restore the table."));
        redo->setStatusTip(redo->isEnabled() ? QString() : tr("Nothing to redo."));
    };
    connect(m_group, &QUndoGroup::canUndoChanged, this, undoTips);
    connect(m_group, &QUndoGroup::canRedoChanged, this, undoTips);
    undoTips();
}

PendingOperations *EditingController::pending() const
{
    return m_base ? m_queues.value(m_path) : nullptr;
}

PendingOperations *EditingController::pendingFor(const QString &path)
{
    PendingOperations *queue = m_queues.value(path);
    if (!queue) {
        queue = new PendingOperations(path, this);
        m_group->addStack(queue->undoStack());
        connect(queue, &PendingOperations::changed, this, [this, queue] {
            if (queue == pending())
                refreshPreview(false);
        });
        m_queues.insert(path, queue);
    }
    return queue;
}

std::optional<PartitionInfo> EditingController::selectedRegion() const
{
    if (!m_base)
        return std::nullopt;
    return regionAtSelection(m_shown);
}

std::optional<PartitionInfo> EditingController::regionAtSelection(const DiskLayout &layout) const
{
    if (!m_hooks.selection)
        return std::nullopt;
    const int row = m_hooks.selection->currentIndex().row();
    if (row < 0 || row >= layout.regions.size() ||
        !m_hooks.selection->isRowSelected(row, QModelIndex()))
        return std::nullopt;
    return layout.regions.at(row);
}

bool EditingController::refuseRealignWhilePending()
{
    if (!pending() || pending()->isEmpty())
        return false;
    auto *notice = new QMessageBox(QMessageBox::Information, tr("Realign"),
                                   tr("%1 has pending operations. Realigning works on the disk "
                                      "as it is: apply or clear them first.")
                                       .arg(shownName()),
                                   QMessageBox::Ok, m_window);
    notice->setObjectName(QStringLiteral("realignPendingNotice"));
    notice->setAttribute(Qt::WA_DeleteOnClose);
    notice->open();
    return true;
}

QString EditingController::shownName() const
{
    return m_hooks.diskName ? m_hooks.diskName(m_path) : m_path;
}

QString EditingController::quitName(const QString &path) const
{
    // An image file by its name, as the file manager shows it; a drive as the window names it
    // ("/dev/sdb on server"). Never the key the window files it under.
    const QString name = m_hooks.diskName ? m_hooks.diskName(path) : path;
    const QFileInfo file(name);
    return file.isAbsolute() && file.isFile() ? file.fileName() : name;
}

void EditingController::diskShown()
{
    refreshPreview(true);
}

void EditingController::refreshPreview(bool windowShowsDiskAsRead)
{
    const QString path = m_hooks.currentPath ? m_hooks.currentPath() : QString();
    m_base = m_hooks.currentLayout ? m_hooks.currentLayout() : std::nullopt;
    if (path != m_path)
        m_showingPreview = false;
    m_path = path;
    if (!m_base) {
        m_group->setActiveStack(nullptr);
        m_shown = DiskLayout();
        m_preview = PreviewResult();
        const QString reason = m_hooks.notEditableReason ? m_hooks.notEditableReason() : QString();
        m_dock->setStatus(reason.isEmpty() ? tr("No disk is ready for editing.") : reason, false);
        if (m_hooks.previewNoticeInStatusBar)
            m_window->statusBar()->clearMessage();
        updateActions();
        return;
    }
    PendingOperations *queue = pendingFor(path);
    m_group->setActiveStack(queue->undoStack());
    // The selection's rows index whatever the window shows right now.
    const std::optional<PartitionInfo> selected =
        regionAtSelection(m_hooks.displayedLayout ? m_hooks.displayedLayout()
                                                  : (windowShowsDiskAsRead ? *m_base : m_shown));
    const AlignmentPolicy policy = m_hooks.policy ? m_hooks.policy() : AlignmentPolicy();
    if (queue->isEmpty()) {
        m_preview = PreviewResult();
        m_preview.ok = true;
        m_preview.layout = *m_base;
        m_shown = *m_base;
        if (m_showingPreview && !windowShowsDiskAsRead && m_hooks.showLayout)
            m_hooks.showLayout(m_shown);
        m_showingPreview = false;
        m_dock->setStatus(tr("No pending operations: the map shows %1 as it is.").arg(shownName()),
                          false);
        if (m_hooks.previewNoticeInStatusBar)
            m_window->statusBar()->clearMessage();
    } else {
        m_preview = previewOperations(*m_base, queue->operations(), policy);
        m_shown = m_preview.layout;
        if (m_hooks.showLayout)
            m_hooks.showLayout(m_shown);
        m_showingPreview = true;
        if (m_hooks.previewNoticeInStatusBar)
            m_window->statusBar()->showMessage(
                tr("Preview: %1 as it will be after %2 — nothing has been written yet")
                    .arg(shownName(), operationCountText(queue->count())));
        if (m_preview.ok)
            m_dock->setStatus(tr("%1 pending. The map shows the disk as it will be after Apply; "
                                 "nothing has been written yet.")
                                  .arg(operationCountText(queue->count())),
                              false);
        else
            m_dock->setStatus(tr("Operation %1 cannot be done: %2")
                                  .arg(m_preview.failedIndex + 1)
                                  .arg(m_preview.error),
                              true);
    }
    if (selected && (m_showingPreview || !windowShowsDiskAsRead))
        selectNear(*selected);
    updateActions();
    emit previewChanged();
}

void EditingController::selectNear(const PartitionInfo &previous)
{
    if (!m_hooks.selection || !m_hooks.selection->model())
        return;
    // A partition that now starts inside the previous selection (a new one in free space),
    // else the region holding its start (free space after a delete).
    int chosen = -1;
    for (int row = 0; row < m_shown.regions.size() && chosen < 0 && m_selectAfterQueue > 0; ++row) {
        const PartitionInfo &r = m_shown.regions.at(row);
        if (!r.isFree() && r.number == m_selectAfterQueue)
            chosen = row;
    }
    for (int row = 0; row < m_shown.regions.size() && chosen < 0; ++row) {
        const PartitionInfo &r = m_shown.regions.at(row);
        if (!r.isFree() && !r.isContainer() && r.startSector >= previous.startSector &&
            r.startSector <= previous.endSector)
            chosen = row;
    }
    // The innermost region first: free space inside an extended partition, not the extended one.
    for (const bool containers : {false, true})
        for (int row = 0; row < m_shown.regions.size() && chosen < 0; ++row) {
            const PartitionInfo &r = m_shown.regions.at(row);
            if (r.isContainer() == containers && r.startSector <= previous.startSector &&
                previous.startSector <= r.endSector)
                chosen = row;
        }
    if (chosen < 0 || chosen >= m_hooks.selection->model()->rowCount())
        return;
    m_hooks.selection->setCurrentIndex(m_hooks.selection->model()->index(chosen, 0),
                                       QItemSelectionModel::ClearAndSelect |
                                           QItemSelectionModel::Rows);
}

void EditingController::updateActions()
{
    EditingSituation situation;
    situation.base = m_base;
    situation.shown = m_shown;
    situation.region = selectedRegion();
    const PendingOperations *queue = pending();
    situation.queued = queue && !queue->isEmpty();
    situation.previewError = m_preview.ok                ? QString()
                             : m_preview.error.isEmpty() ? tr("the preview of the queue failed")
                                                         : m_preview.error;
    // The Resize dialog measures the filesystem's smallest size; a disk a helper reads (another
    // machine's, or this one's for a window run as a user) needs the helper to measure it.
    situation.resizeThroughHelper =
        m_base && m_base->device.readByHelper && !m_measureThroughHelper;
    for (Action a : {Action::NewTable, Action::Create, Action::Resize, Action::Delete,
                     Action::Format, Action::SetLabel, Action::SetName, Action::Flags,
                     Action::Check, Action::NewUuid, Action::NewPartitionGuid, Action::Clear,
                     Action::SavePlan, Action::LoadPlan, Action::Apply})
        applyOffer(action(a), editingOffer(a, situation));
    const bool hasTable = m_base && !m_base->device.readOnly && !m_shown.tableType.isEmpty();
    updatePasteActions(situation.region, hasTable);
    m_lastApply->update(m_path, situation.queued, m_base && m_base->device.isImage);
}

bool EditingController::queue(const Operation &op, QString *error)
{
    PendingOperations *queue = pending();
    QString why;
    if (!queue) {
        why = tr("No disk is ready for editing.");
    } else {
        QList<Operation> ops = queue->operations();
        ops << op;
        const PreviewResult check =
            previewOperations(*m_base, ops, m_hooks.policy ? m_hooks.policy() : AlignmentPolicy());
        if (check.ok) {
            // The partition the operation changes stays selected (a Resize of a logical one
            // starts before it: the extended partition would hold the old start).
            const bool samePartition = op.number > 0 && op.type != Operation::Type::Delete &&
                                       op.type != Operation::Type::Create &&
                                       op.type != Operation::Type::Paste;
            m_selectAfterQueue = samePartition ? op.number : 0;
            queue->push(op);
            m_selectAfterQueue = 0;
            return true;
        }
        why = check.error;
    }
    if (error)
        *error = why;
    else
        warn(tr("Cannot Queue the Operation"),
             tr("“%1” cannot be done: %2").arg(op.description(), why));
    return false;
}

void EditingController::warn(const QString &title, const QString &text)
{
    QMessageBox::warning(m_window, title, text);
}

void EditingController::newTable()
{
    if (!m_base)
        return;
    NewTableDialog dialog(m_shown, m_window);
    if (dialog.exec() == QDialog::Accepted)
        queue(dialog.operation());
}

void EditingController::createPartition()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    PendingOperations *queue = pending();
    if (!region || !region->isFree() || !queue)
        return;
    CreatePartitionDialog dialog(*m_base, queue->operations(), m_shown, *region,
                                 m_hooks.policy ? m_hooks.policy() : AlignmentPolicy(), m_window);
    if (dialog.exec() == QDialog::Accepted)
        this->queue(dialog.operation());
}

void EditingController::resizePartition()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    PendingOperations *queue = pending();
    if (!region || region->isFree() || region->isContainer() || !queue)
        return;
    ResizePartitionDialog::Measurer measure;
    if (m_base->device.readByHelper) {
        if (!m_measureThroughHelper)
            return;
        measure = [this, path = m_path](int number, auto done) {
            m_measureThroughHelper(path, number, std::move(done));
        };
    }
    ResizePartitionDialog dialog(*m_base, queue->operations(), m_shown, *region,
                                 m_hooks.policy ? m_hooks.policy() : AlignmentPolicy(), m_window,
                                 measure);
    if (dialog.exec() == QDialog::Accepted)
        this->queue(dialog.operation());
}

void EditingController::deletePartition()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    if (region && !region->isFree())
        queue(OperationPrompts::deletion(*region));
}

void EditingController::format()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    if (!region || region->isFree())
        return;
    FormatDialog dialog(*region, m_window);
    if (dialog.exec() == QDialog::Accepted)
        queue(dialog.operation());
}

void EditingController::setLabel()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    if (!region || region->isFree())
        return;
    if (const std::optional<Operation> op = OperationPrompts::askLabel(*region, m_window))
        queue(*op);
}

void EditingController::setName()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    if (!region || region->isFree())
        return;
    if (const std::optional<Operation> op = OperationPrompts::askName(*region, m_window))
        queue(*op);
}

void EditingController::editFlags()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    PendingOperations *queue = pending();
    if (!region || region->isFree() || !queue)
        return;
    FlagsDialog dialog(*region, m_shown.tableType, m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QList<Operation> changes = dialog.operations();
    if (changes.isEmpty())
        return;
    QList<Operation> ops = queue->operations();
    ops << changes;
    const PreviewResult check =
        previewOperations(*m_base, ops, m_hooks.policy ? m_hooks.policy() : AlignmentPolicy());
    if (!check.ok) {
        warn(tr("Cannot Queue the Operation"), check.error);
        return;
    }
    queue->pushGroup(changes, tr("Change the flags of partition %1").arg(region->number));
}

void EditingController::check()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    if (!region || region->isFree())
        return;
    CheckDialog dialog(*region, m_window);
    if (dialog.exec() == QDialog::Accepted)
        queue(dialog.operation());
}

void EditingController::newUuid()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    if (!region || region->isFree() || region->isContainer())
        return;
    Operation op;
    op.type = Operation::Type::NewUuid;
    op.number = region->number;
    // Chosen now, so the plan names it and the references that follow it.
    op.uuid = randomFilesystemUuid(region->filesystem);
    op.oldUuid = region->uuid;
    queue(op);
}

void EditingController::newPartitionGuid()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    if (!region || region->isFree() || region->isContainer())
        return;
    Operation op;
    op.type = Operation::Type::NewPartitionGuid;
    op.number = region->number;
    queue(op);
}

void EditingController::clearQueue()
{
    PendingOperations *queue = pending();
    if (!queue || queue->isEmpty())
        return;
    if (QMessageBox::question(m_window, tr("Clear Pending Operations"),
                              tr("Forget %1 pending on %2? This cannot be undone.")
                                  .arg(operationCountText(queue->count()), shownName())) !=
        QMessageBox::Yes)
        return;
    queue->clear();
}
