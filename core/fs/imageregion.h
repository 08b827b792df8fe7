#pragma once

#include <QString>

namespace partwise {

// Byte-range helpers for partitions that live inside an image file rather than behind a
// device node.

// Makes [offset, offset+length) of a file read as zeros, punching a hole where the filesystem
// supports it, so stale signatures cannot confuse libblkid afterwards.
bool zeroFileRange(const QString &path, qint64 offset, qint64 length, QString *error);

// Copies the data extents of the sparse file `source` into `target` at `targetOffset`, skipping
// holes (a fresh filesystem is mostly holes). `target`'s range must already read as zeros.
bool copySparseInto(const QString &source, const QString &target, qint64 targetOffset,
                    QString *error);

} // namespace partwise
