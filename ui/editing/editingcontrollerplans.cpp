// Edit → Save Plan… and Load Plan…: the queue of the disk on screen written as a plan file
// (ops/planfile.h, the format `partwise-cli apply` reads) and read back. A loaded plan replaces
// the queue, as one undoable step, only once the preview of all of it succeeds on this disk;
// otherwise it names the first operation that cannot be done and leaves the queue as it was.
#include "editing/editingcontroller.h"

#include "editing/pendingoperations.h"
#include "ops/pastesource.h"
#include "ops/planfile.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>

using namespace partwise;

bool EditingController::savePlanTo(const QString &path, QString *error) const
{
    const PendingOperations *queue = pending();
    QFile file(path);
    if (!queue || !file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(serializePlan(queue->operations())) < 0) {
        *error = queue ? file.errorString() : tr("No disk is ready for editing.");
        return false;
    }
    return true;
}

bool EditingController::loadPlanFrom(const QString &path, QString *error)
{
    PendingOperations *queue = pending();
    if (!queue) {
        *error = tr("No disk is ready for editing.");
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return false;
    }
    QList<Operation> ops;
    // A paste's source is read here (without writing) for the preview to show what it holds.
    if (!parsePlan(file.readAll(), &ops, error) || !resolvePasteSources(&ops, error))
        return false;
    const PreviewResult check =
        previewOperations(*m_base, ops, m_hooks.policy ? m_hooks.policy() : AlignmentPolicy());
    if (!check.ok) {
        *error = tr("Operation %1 of the plan cannot be done on %2: %3")
                     .arg(check.failedIndex + 1)
                     .arg(shownName(), check.error);
        return false;
    }
    queue->replaceAll(ops, tr("Load plan %1").arg(QFileInfo(path).fileName()));
    return true;
}

void EditingController::savePlan()
{
    QSettings settings;
    const QString folder =
        settings.value(QStringLiteral("editing/planFolder"), QDir::homePath()).toString();
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save Plan"),
                                                QDir(folder).filePath(QStringLiteral("plan.json")),
                                                tr("Partwise plans (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    settings.setValue(QStringLiteral("editing/planFolder"), QFileInfo(path).absolutePath());
    QString error;
    if (!savePlanTo(path, &error))
        warn(tr("Save Plan"), tr("Cannot write %1: %2").arg(path, error));
}

void EditingController::loadPlan()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Load Plan"),
        settings.value(QStringLiteral("editing/planFolder"), QDir::homePath()).toString(),
        tr("Partwise plans (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("editing/planFolder"), QFileInfo(path).absolutePath());
    QString error;
    if (!loadPlanFrom(path, &error))
        warn(tr("Load Plan"), error);
}
