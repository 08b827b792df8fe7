#pragma once

// The source of a Paste (operation.h): the partition a plan or the window names, read without
// writing, and what it holds. A plan file carries only the path and number; the size a paste
// needs and the filesystem and label the preview shows come from here, read again before Apply
// writes anything.

#include "ops/operation.h"
#include "table/disklayout.h"

#include <QList>
#include <QString>

namespace partwise {

struct PasteSourceRead
{
    bool ok = false;
    QString error;
    DiskLayout layout; // the source disk as read
    PartitionInfo partition;
    Operation::PasteSource source;
};

// Reads partition `number` of `path` (a disk or image, opened read-only) and measures its
// filesystem with the filesystem's own tool. Refuses what holds nothing to paste: free space, an
// extended partition, a partition without a filesystem libblkid recognises.
PasteSourceRead readPasteSource(const QString &path, int number);

// What the window already knows of a partition it shows (the filesystem is not measured: the
// partition's length is then the smallest a paste may be).
Operation::PasteSource pasteSourceFromLayout(const DiskLayout &layout, const PartitionInfo &p);

// When `askedBytes` (a paste's size) is less than the source's filesystem holds: how far that
// filesystem may shrink, as the disk copy asks it (ops/copyshrink.h), into
// read->source.shrinkMinimumBytes. Left 0 when it cannot shrink or nobody can tell.
void measurePasteShrink(PasteSourceRead *read, qint64 askedBytes);

// Why the partition may not be read for a paste now: mounted read-write, swap in use (the disk
// copy's rule, ops/copyplan.h's copySourceRefusals). Empty when it may.
QStringList pasteSourceRefusals(const PasteSourceRead &read);

// Fills in `source` of every Paste in `operations` from the disks, and refuses a source that
// cannot be read or is in use, naming the operation. Writes nothing.
bool resolvePasteSources(QList<Operation> *operations, QString *error);

// Whether two paths are the same disk or image (the same block device or the same file).
bool sameDiskOrImage(const QString &a, const QString &b);

} // namespace partwise
