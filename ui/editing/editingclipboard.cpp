// Copy and Paste of one partition (EditingController): Copy remembers a partition of the disk as
// read, Paste queues a copy of it in free space of the disk on screen, placed by the create
// dialog in its paste mode. The queue's preview shows it with the source's filesystem and label;
// Apply copies the data (core/ops/pasteexecution.h).

#include "base/humansize.h"
#include "editing/createpartitiondialog.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "fs/filesystemresize.h"
#include "ops/pastesource.h"

#include <QAction>
#include <QMainWindow>
#include <QPointer>
#include <QStatusBar>

using namespace partwise;

QString EditingController::server(const QString &path, QString *pathThere) const
{
    QString there = path;
    const QString machine = m_hooks.servedBy ? m_hooks.servedBy(path, &there) : QString();
    if (pathThere)
        *pathThere = there;
    return machine;
}

QString EditingController::pasteProblem(const PartitionInfo &region) const
{
    if (!m_copied)
        return tr("Copy a partition first.");
    const qint64 ss = m_shown.device.topology.logicalSectorSize;
    // The disk on screen is written by whoever reads it: this window, or a helper.
    QString hereKey = server(m_path);
    if (m_base && m_base->device.readByHelper && hereKey.isEmpty())
        hereKey = QStringLiteral("#helper");
    if (hereKey != m_copiedServer)
        return tr("The copied partition's disk and this one are read by different helpers (or one "
                  "by this window): a paste runs where its target is written and cannot read "
                  "its source there. Use Copy Disk To… or partwise-cli on one machine.");
    if (region.lengthSectors() * ss < m_copied->source.minimumBytes())
        return tr("The copied partition needs %1; this free space holds %2.")
            .arg(humanSize(m_copied->source.minimumBytes()),
                 humanSize(region.lengthSectors() * ss));
    return QString();
}

void EditingController::updatePasteActions(const std::optional<PartitionInfo> &region,
                                           bool hasTable)
{
    const bool ready = m_base.has_value() && !m_base->device.readOnly;
    // Only a partition on the disk as read holds data to copy (not one the queue creates).
    const PartitionInfo *onDisk =
        ready && region && !region->isFree() ? m_base->partitionByNumber(region->number) : nullptr;
    const bool copyable = onDisk && onDisk->startSector == region->startSector &&
                          !onDisk->isContainer() && !onDisk->filesystem.isEmpty();
    action(Action::Copy)->setEnabled(copyable);
    const bool free = hasTable && region && region->isFree();
    const QString problem = free ? pasteProblem(*region) : QString();
    action(Action::Paste)->setEnabled(free && problem.isEmpty());
    const QString hint = !problem.isEmpty() ? problem
                         : m_copied         ? tr("Paste a copy of partition %1 of %2 here")
                                          .arg(m_copied->sourceNumber)
                                          .arg(m_copied->sourcePath)
                                    : tr("Copy a partition first.");
    action(Action::Paste)->setToolTip(hint);
    action(Action::Paste)->setStatusTip(hint); // context menus show no tooltips
}

void EditingController::copyPartition()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    if (!region || region->isFree() || !m_base)
        return;
    const PartitionInfo *p = m_base->partitionByNumber(region->number);
    if (!p || p->startSector != region->startSector || p->filesystem.isEmpty())
        return;
    Operation op;
    op.type = Operation::Type::Paste;
    QString pathThere;
    m_copiedServer = server(m_path, &pathThere);
    if (m_base->device.readByHelper && m_copiedServer.isEmpty())
        m_copiedServer = QStringLiteral("#helper");
    op.sourcePath = pathThere;
    op.sourceNumber = p->number;
    op.source = pasteSourceFromLayout(*m_base, *p);
    m_copied = op;
    measureCopiedShrink();
    m_window->statusBar()->showMessage(
        tr("Partition %1 of %2 copied: select free space and choose Paste.")
            .arg(p->number)
            .arg(shownName()),
        8000);
    updateActions();
}

void EditingController::pastePartition()
{
    const std::optional<PartitionInfo> region = selectedRegion();
    PendingOperations *queue = pending();
    if (!region || !region->isFree() || !queue || !m_copied)
        return;
    if (const QString problem = pasteProblem(*region); !problem.isEmpty()) {
        warn(tr("Cannot Paste"), problem);
        return;
    }
    CreatePartitionDialog dialog(*m_base, queue->operations(), m_shown, *region,
                                 m_hooks.policy ? m_hooks.policy() : AlignmentPolicy(), m_window,
                                 m_copied);
    if (dialog.exec() == QDialog::Accepted)
        this->queue(dialog.operation());
}

void EditingController::measureCopiedShrink()
{
    const quint64 copy = ++m_copies;
    if (!m_copied || !m_base || !canShrinkUnmounted(m_copied->source.filesystem))
        return;
    QPointer<EditingController> self(this);
    const auto take = [self, copy](qint64 minimum) {
        if (!self || copy != self->m_copies || !self->m_copied || minimum <= 0)
            return;
        self->m_copied->source.shrinkMinimumBytes = minimum;
        self->updateActions();
    };
    const int number = m_copied->sourceNumber;
    if (m_base->device.readByHelper) {
        // The helper's filesystem-minimum, as the Resize dialog asks it; queued, since an
        // answer may come at once.
        if (m_measureThroughHelper)
            m_measureThroughHelper(m_path, number, [self, take](const FilesystemLimits &limits) {
                if (self && limits.minimumBytes)
                    QMetaObject::invokeMethod(
                        self, [take, minimum = *limits.minimumBytes] { take(minimum); },
                        Qt::QueuedConnection);
            });
        return;
    }
    // resize2fs -P (or the used-block map) takes seconds on a large disk: not on the GUI thread.
    const QString path = m_copied->sourcePath;
    m_measuringCopy.enqueue(
        [path, number, take]() -> std::function<void()> {
            PasteSourceRead read = readPasteSource(path, number);
            if (read.ok)
                measurePasteShrink(&read, 1);
            const qint64 minimum = read.ok ? read.source.shrinkMinimumBytes : 0;
            return [take, minimum] { take(minimum); };
        },
        QStringLiteral("partwise-measure-copy"));
}
