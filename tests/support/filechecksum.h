// SHA-256 of a whole file: proves that a read-only command left the bytes alone.
#pragma once

#include <QByteArray>
#include <QString>

class QIODevice;

namespace pwtest {

// Hex SHA-256 of the file's contents; empty when the file cannot be read.
QByteArray fileSha256(const QString &path);

// Hex SHA-256 of what is left to read from `device`; empty on a read error. OpenSSL's SHA-256
// (SHA-NI where the CPU has it) rather than QCryptographicHash's portable C: the realignment
// suites hash gigabytes of images and files, and Qt 6.4's takes six times the CPU for it.
QByteArray deviceSha256(QIODevice *device);

} // namespace pwtest
