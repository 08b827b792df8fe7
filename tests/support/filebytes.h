// A whole file's bytes in and out: for tests that keep a file as it was and put it back, or
// damage a copy of it.
#pragma once

#include <QByteArray>
#include <QString>

namespace pwtest {

// The file's contents; empty when it cannot be read.
QByteArray readWholeFile(const QString &path);
// Replaces the file's contents with `data`; false when that fails.
bool writeWholeFile(const QString &path, const QByteArray &data);
// A new sparse file of `bytes` zeros (a blank disk image); false when it cannot be made.
bool makeSparseFile(const QString &path, qint64 bytes);

} // namespace pwtest
