#include "ops/operationpreview.h"

#include "fs/resizelimit.h"
#include "fs/sessionabilities.h"
#include "layer/physicalvolumeresize.h"
#include "ops/partitionaccess.h"
#include "ops/physicalvolumestep.h"
#include "ops/tableeditor.h"

#include <QDir>
#include <QTemporaryFile>

#include <optional>

namespace partwise {

namespace {

// Why this session cannot resize the filesystem of `before` to `after` (the Resize `op`):
// refused here, before anything is written, not found out half-way through Apply.
QString resizeLimit(const Operation &op, const PartitionInfo &before, const PartitionInfo &after,
                    const DiskLayout &current)
{
    const qint64 ss = current.device.topology.logicalSectorSize;
    const qint64 oldBytes = before.lengthSectors() * ss;
    const qint64 newBytes = after.lengthSectors() * ss;
    QString why = whyCannotResizeHere(
        before.filesystem, oldBytes, newBytes, op.sizeBytes == oldBytes,
        current.device.isImage ? FilesystemPlace::Image : FilesystemPlace::Disk);
    if (why.isEmpty() && newBytes != oldBytes)
        why = resizeLimitOf({current.device.path, before.startSector * ss, true}, oldBytes,
                            before.filesystem);
    // A physical volume shrinks only while its allocated extents stay inside it.
    if (why.isEmpty() && newBytes < oldBytes && isPhysicalVolume(before.filesystem))
        why = physicalVolumeShrinkRefusal(current, before, newBytes);
    if (why.isEmpty())
        return why;
    return QStringLiteral("Partition %1 cannot be %2 here: %3")
        .arg(op.number)
        .arg(newBytes < oldBytes ? QStringLiteral("shrunk") : QStringLiteral("grown"), why);
}

// The pvresize a Resize of a physical volume's partition runs, as a plan line.
void notePhysicalVolume(int operation, const PartitionInfo &before, const PartitionInfo &after,
                        const DiskLayout &current, PreviewResult *result)
{
    if (!isPhysicalVolume(before.filesystem) || after.lengthSectors() == before.lengthSectors())
        return;
    const qint64 ss = current.device.topology.logicalSectorSize;
    const FilesystemLocation where =
        current.device.readByHelper ? FilesystemLocation{}
                                    : partitionLocation(current, before.startSector, before.number);
    // A helper's disk is named by its helper's machine, not this one's nodes.
    const QString node = where.isImage || current.device.readByHelper
                             ? QStringLiteral("partition %1").arg(before.number)
                             : where.path;
    const bool grows = after.lengthSectors() > before.lengthSectors();
    result->steps << qMakePair(operation,
                               physicalVolumeResizeLine(node, after.lengthSectors() * ss) +
                                   (grows ? QStringLiteral(", after the partition grows")
                                          : QStringLiteral(", before the partition shrinks")));
}

void notePaste(const DiskLayout &after, int operation, int number, qint64 sourceStart,
               QList<PreviewMove> *pastes)
{
    if (const PartitionInfo *p = after.partitionByNumber(number))
        *pastes << PreviewMove{operation, number, sourceStart, p->startSector, p->lengthSectors()};
}

} // namespace

PreviewResult previewOperations(const DiskLayout &current, const QList<Operation> &operations,
                                const AlignmentPolicy &policy)
{
    PreviewResult result;
    result.layout = current;
    TableEditor editor;
    // A helper's disk is not this process's to open: its table is rebuilt on a sparse scratch
    // file of the same size, which libparted then edits in memory as it would the disk.
    QTemporaryFile scratch(QDir::temp().filePath(QStringLiteral("partwise-preview-XXXXXX")));
    const qint64 bytes = current.device.lengthSectors * current.device.topology.logicalSectorSize;
    const bool opened = current.device.readByHelper
                            ? scratch.open() && scratch.resize(bytes) &&
                                  editor.openReplica(current, scratch.fileName(), &result.error)
                            : editor.open(current, &result.error);
    if (!opened) {
        if (result.error.isEmpty())
            result.error = scratch.errorString();
        result.failedIndex = 0;
        return result;
    }
    for (int i = 0; i < operations.size(); ++i) {
        if (const QString problem = operations[i].textProblem(); !problem.isEmpty())
            result.error = problem; // shown in the queue at once, not first at Apply
        const Operation &op = operations[i];
        std::optional<PartitionInfo> old;
        if (op.type == Operation::Type::Resize && result.error.isEmpty()) {
            const DiskLayout before = editor.layout(); // a copy: `p` points into it
            if (const PartitionInfo *p = before.partitionByNumber(op.number))
                old = *p;
        }
        int made = 0;
        if (!result.error.isEmpty() || !editor.apply(op, policy, &result.error, &made)) {
            result.failedIndex = i;
            result.layout = editor.layout();
            return result;
        }
        if (op.type == Operation::Type::Paste)
            notePaste(editor.layout(), i, made, op.source.startSector, &result.pastes);
        if (old) {
            const DiskLayout after = editor.layout(); // a copy: `p` points into it
            const PartitionInfo *p = after.partitionByNumber(op.number);
            // A helper's disk is resized by its helper, whose session may differ from this
            // one: the helper's own preview (and Apply) says what it cannot do.
            if (p && !current.device.readByHelper)
                result.error = resizeLimit(op, *old, *p, current);
            if (!result.error.isEmpty()) {
                result.failedIndex = i;
                result.layout = after;
                return result;
            }
            if (p)
                notePhysicalVolume(i, *old, *p, current, &result);
            if (p && p->startSector != old->startSector)
                result.moves << PreviewMove{i, op.number, old->startSector, p->startSector,
                                            p->lengthSectors()};
        }
    }
    result.layout = editor.layout();
    result.ok = true;
    return result;
}

} // namespace partwise
