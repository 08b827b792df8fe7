#include "ops/operationpreview.h"

#include "ops/tableeditor.h"

#include <QDir>
#include <QTemporaryFile>

#include <optional>

namespace partwise {

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
        std::optional<qint64> oldStart;
        if (op.type == Operation::Type::Resize && result.error.isEmpty()) {
            const DiskLayout before = editor.layout(); // a copy: `p` points into it
            if (const PartitionInfo *p = before.partitionByNumber(op.number))
                oldStart = p->startSector;
        }
        if (!result.error.isEmpty() || !editor.apply(op, policy, &result.error)) {
            result.failedIndex = i;
            result.layout = editor.layout();
            return result;
        }
        if (oldStart) {
            const DiskLayout after = editor.layout(); // a copy: `p` points into it
            const PartitionInfo *p = after.partitionByNumber(op.number);
            if (p && p->startSector != *oldStart)
                result.moves << PreviewMove{i, op.number, *oldStart, p->startSector,
                                            p->lengthSectors()};
        }
    }
    result.layout = editor.layout();
    result.ok = true;
    return result;
}

} // namespace partwise
