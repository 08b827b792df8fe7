// Copy and Paste of one partition (EditingController): Copy remembers a partition of the disk as
// read, Paste queues a copy of it in free space of the disk on screen, placed by the create
// dialog in its paste mode. The queue's preview shows it with the source's filesystem and label;
// Apply copies the data (core/ops/pasteexecution.h).

#include "base/humansize.h"
#include "editing/createpartitiondialog.h"
#include "editing/editingavailability.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "fs/filesystemresize.h"
#include "ops/pastesource.h"
#include "table/mbrslots.h"

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

// Why the selected region cannot be copied, or empty. Copying only reads, so a read-only disk
// copies too.
QString EditingController::copyProblem(const std::optional<PartitionInfo> &region) const
{
    if (!m_base)
        return tr("Open a disk or a disk image first.");
    if (!region || region->isFree())
        return tr("Select a partition to copy.");
    if (region->isContainer())
        return tr("An extended partition cannot be copied as one: copy the logical partitions "
                  "inside it, or the whole disk with Drive → Copy Disk To….");
    const PartitionInfo *onDisk = m_base->partitionByNumber(region->number);
    if (!onDisk || onDisk->startSector != region->startSector)
        return tr("Partition %1 is not on the disk yet: apply the pending operations, then copy "
                  "it.")
            .arg(region->number);
    if (onDisk->filesystem.isEmpty())
        return tr("Partition %1 holds no filesystem Partwise recognises, so there is nothing it "
                  "knows how to copy.")
            .arg(region->number);
    return QString();
}

void EditingController::updatePasteActions(const std::optional<PartitionInfo> &region,
                                           bool hasTable)
{
    const QString notCopied = copyProblem(region);
    action(Action::Copy)->setEnabled(notCopied.isEmpty());
    const QString copyHint =
        notCopied.isEmpty()
            ? tr("Copy partition %1, to paste it into unallocated space").arg(region->number)
            : notCopied;
    action(Action::Copy)->setToolTip(copyHint);
    action(Action::Copy)->setStatusTip(copyHint);
    const bool free = hasTable && region && region->isFree();
    const QString readOnly = m_base ? readOnlyReason(*m_base) : QString();
    QString problem = !readOnly.isEmpty() ? readOnly
                      : !m_base           ? tr("Open a disk or a disk image first.")
                      : !hasTable ? tr("This disk has no partition table: create one with New "
                                       "Partition Table… first.")
                      : !free     ? tr("Select unallocated space to paste into.")
                                  : pasteProblem(*region);
    if (problem.isEmpty() && !insideExtended(m_shown, *region))
        problem = noPrimarySlotReason(m_shown);
    action(Action::Paste)->setEnabled(problem.isEmpty());
    const QString hint = problem.isEmpty() ? tr("Paste a copy of partition %1 of %2 here")
                                                 .arg(m_copied->sourceNumber)
                                                 .arg(m_copied->sourcePath)
                                           : problem;
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
