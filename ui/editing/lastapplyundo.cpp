#include "editing/lastapplyundo.h"

#include "ops/applyundo.h"
#include "ops/tablerestorecheck.h"

#include <QAction>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QWidget>

using namespace partwise;

LastApplyUndo::LastApplyUndo(QWidget *window, Hooks hooks, QObject *parent)
    : QObject(parent), m_window(window), m_hooks(std::move(hooks)),
      m_action(new QAction(tr("Undo Last Appl&y…"), this))
{
    m_action->setObjectName(QStringLiteral("undoApplyAction"));
    connect(m_action, &QAction::triggered, this, &LastApplyUndo::undo);
    update(QString(), false, false);
}

void LastApplyUndo::record(const QString &path, const QList<Operation> &operations,
                           const ApplyResult &result, bool throughHelper)
{
    if (result.backupFolder.isEmpty())
        return; // nothing was written: what was undoable before still is
    Record r{result.backupFolder, whyApplyCannotBeUndone(operations)};
    // The helper's backup is root's, in root's folder: this window cannot read it.
    if (r.refusal.isEmpty() && throughHelper)
        r.refusal = tr("The last Apply was written by the administrator's helper, which keeps its "
                       "table backup in %1. To put it back: `sudo partwise-cli restore %1 %2`.")
                        .arg(result.backupFolder, path);
    m_records.insert(path, r);
    refresh();
}

void LastApplyUndo::forget(const QString &path, const QString &why)
{
    m_records.insert(path, Record{QString(), why});
    refresh();
}

void LastApplyUndo::update(const QString &path, bool queued, bool isImage)
{
    m_path = path;
    m_queued = queued;
    m_isImage = isImage;
    refresh();
}

void LastApplyUndo::refresh()
{
    const auto it = m_records.constFind(m_path);
    QString tip;
    if (m_job.isBusy())
        tip = tr("Putting the table back…");
    else if (it == m_records.cend())
        tip = tr("Nothing to undo: no Apply has written this disk since Partwise started.");
    else if (!it->refusal.isEmpty())
        tip = it->refusal;
    else if (m_queued)
        tip = tr("Apply or clear the pending operations first: undoing the last Apply changes "
                 "the disk they were planned on.");
    const bool enabled = tip.isEmpty();
    m_action->setEnabled(enabled);
    m_action->setStatusTip(enabled ? tr("Put back the partition table as it was before the last "
                                        "Apply, from the backup it took")
                                   : tip);
    m_action->setToolTip(m_action->statusTip());
}

void LastApplyUndo::undo()
{
    const auto it = m_records.constFind(m_path);
    if (it == m_records.cend() || !it->refusal.isEmpty() || m_job.isBusy())
        return;
    const QString path = m_path;
    const QString folder = it->backupFolder;
    // sfdisk and the busy checks: not on the GUI thread.
    m_job.start(
        [this, path, folder]() -> std::function<void()> {
            const TableRestoreCheck check = checkTableRestore(folder, path);
            return [this, path, folder, check] {
                if (!check.ok())
                    finished(path, false, check.refusal);
                else
                    ask(path, folder, check.changes);
            };
        },
        QStringLiteral("partwise-undo-check"));
    refresh();
}

void LastApplyUndo::ask(const QString &path, const QString &backupFolder,
                        const QStringList &changes)
{
    QMessageBox box(
        QMessageBox::Question, tr("Undo Last Apply"),
        tr("Put back the partition table of %1 as it was before the last Apply?").arg(name(path)),
        QMessageBox::Yes | QMessageBox::No, m_window);
    box.setObjectName(QStringLiteral("undoApplyQuestion"));
    QStringList lines;
    for (const QString &line : changes)
        lines << QStringLiteral("• ") + line;
    if (lines.isEmpty())
        lines << tr("The partitions are the backup's already; the table's bytes go back.");
    box.setInformativeText(
        lines.join(QLatin1Char('\n')) + QStringLiteral("\n\n") +
        tr("No data was moved since the backup, so its table points at the data. The backup "
           "stays in %1.")
            .arg(backupFolder));
    box.button(QMessageBox::Yes)->setText(tr("&Undo Apply"));
    box.button(QMessageBox::No)->setText(tr("Cancel"));
    box.setDefaultButton(QMessageBox::No);
    box.setEscapeButton(QMessageBox::No);
    if (box.exec() == QMessageBox::Yes)
        restore(path, backupFolder);
    else
        refresh();
}

void LastApplyUndo::restore(const QString &path, const QString &backupFolder)
{
    const bool isImage = m_isImage;
    m_job.start(
        [this, path, backupFolder, isImage]() -> std::function<void()> {
            QString error;
            const bool ok = undoApply(backupFolder, path, isImage, &error);
            return [this, path, ok, error] { finished(path, ok, error); };
        },
        QStringLiteral("partwise-undo-apply"));
    refresh();
}

void LastApplyUndo::finished(const QString &path, bool ok, const QString &message)
{
    if (ok)
        m_records.insert(path, Record{QString(), tr("The last Apply was undone already.")});
    QMessageBox box(
        ok ? QMessageBox::Information : QMessageBox::Warning, tr("Undo Last Apply"),
        ok ? tr("The partition table of %1 is as it was before the last Apply.").arg(name(path))
           : message,
        QMessageBox::Ok, m_window);
    box.setObjectName(ok ? QStringLiteral("undoApplyDone") : QStringLiteral("undoApplyRefused"));
    if (m_hooks.reread && ok)
        m_hooks.reread(path);
    refresh();
    box.exec();
}

QString LastApplyUndo::name(const QString &path) const
{
    return m_hooks.diskName ? m_hooks.diskName(path) : path;
}
