// Whole reads and writes at a position. pread and pwrite may move fewer bytes than asked (a
// signal, a pipe, FUSE, a block device at its end) and every caller wants all of them: one
// loop, here, for every file in core that reads or writes at an offset.
#pragma once

#include <QtGlobal>

namespace partwise {

// Reads `length` bytes at `offset` into `data`, again after EINTR and short reads. Returns the
// bytes read: `length`, fewer where the file ends first, or -1 with errno set.
qint64 readFullAt(int fd, char *data, qint64 length, qint64 offset);

// Writes all `length` bytes at `offset`, again after EINTR and short writes. False with errno
// set when a write fails, EIO when the file takes no more bytes.
bool writeFullAt(int fd, const char *data, qint64 length, qint64 offset);

} // namespace partwise
