// SHA-256 of a whole file: proves that a read-only command left the bytes alone.
#pragma once

#include <QByteArray>
#include <QString>

namespace pwtest {

// Hex SHA-256 of the file's contents; empty when the file cannot be read.
QByteArray fileSha256(const QString &path);

} // namespace pwtest
