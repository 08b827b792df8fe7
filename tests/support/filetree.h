// A deterministic tree of many small files and one large one, and the SHA-256 of every file
// in a tree: what a realignment must carry across byte for byte.
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace pwtest {

// Writes `smallFiles` files of 0–16 KiB spread over nested folders, plus "large.bin" of
// `largeBytes`, all filled from a PRNG seeded with `seed`. Names are 8.3-safe for FAT.
bool makeFileTree(const QString &dir, int smallFiles, qint64 largeBytes, quint32 seed,
                  QString *error);

// Relative path -> hex SHA-256 of every regular file under dir (deviceSha256).
QMap<QString, QByteArray> treeSha256(const QString &dir, QString *error = nullptr);

// Missing, extra and differing files, one line each; empty when the trees are equal.
QStringList compareTrees(const QMap<QString, QByteArray> &expected,
                         const QMap<QString, QByteArray> &actual);

} // namespace pwtest
