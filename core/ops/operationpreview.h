#pragma once

#include "align/alignmentpolicy.h"
#include "ops/operation.h"
#include "table/disklayout.h"

#include <QList>

namespace partwise {

// A Resize that gives a partition a new start, as libparted placed it: its data moves.
struct PreviewMove
{
    int operation = 0; // its index in the queue
    int number = 0;    // the partition, numbered as the operations before it leave the table
    qint64 oldStart = 0;
    qint64 newStart = 0;
    qint64 newLength = 0;
};

struct PreviewResult
{
    bool ok = false;
    int failedIndex = -1; // the operation that cannot be done, when !ok
    QString error;
    DiskLayout layout;        // the disk as it would be after the operations that succeed
    QList<PreviewMove> moves; // in the queue's order
    // Each Paste: `number` the new partition, `oldStart` its source's start in the source
    // disk's sectors (ops/pasteboot.h judges what its loaders make of the new start).
    QList<PreviewMove> pastes;
    // What runs beside an operation's table change, as the plan says it: each Resize of a
    // partition holding an LVM physical volume ("pvresize /dev/sdb2 to 120 MiB, ...").
    QList<QPair<int, QString>> steps; // (operation index, line)
};

// What the disk will look like once `operations` are applied to `current`: libparted's own
// in-memory table, so numbering and limits are exactly what Apply will meet. Writes nothing.
// A layout a helper read (device.readByHelper) is previewed on a copy of its table, so the
// window never opens a disk that is the helper's; the helper checks the plan on the disk
// itself again before Apply writes.
// A Resize whose filesystem this session cannot shrink or grow (fs/sessionabilities.h: no loop
// device nor FUSE for an image, a tool missing) fails here with the reason, so the dialog, the
// queue and Apply refuse it before anything is written; a helper's disk is left to its helper.
PreviewResult previewOperations(const DiskLayout &current, const QList<Operation> &operations,
                                const AlignmentPolicy &policy);

} // namespace partwise
