// Copying a filesystem by its used-block map, and finding its files' blocks by content: what the
// used-map tests compare against. `offset` is where the filesystem starts in its image.
#pragma once

#include "move/moverequest.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <vector>

// A sparse file of `size` zeros holding only `extents` of `source`'s filesystem at offset,
// copied there by the data mover itself: the filesystem is parked past the end of the zeros,
// the mover moves it down to offset with the map (verifying what it copied), and the file is
// cut back to `size`. What the mover leaves out of a map is what a realignment would lose.
bool copyExtents(const QString &source, const QString &target, qint64 offset, qint64 size,
                 const std::vector<partwise::move::Extent> &extents, QString *error);

// Where the first 4 KiB of `needle` lie in the filesystem at offset of `image`; -1 if nowhere.
qint64 locate(const QString &image, qint64 offset, qint64 fsSize, const QByteArray &needle);

// Without a driver (F2FS here), where each whole 4 KiB block of the expected files lies in the
// source image: found by content (the files are random, so every block is unique), offsets from
// the filesystem's start. Blocks not in a block of their own (inline data, a partial last
// block) are left out; `required` files must be found whole.
bool locateFileBlocks(const QString &image, qint64 offset, qint64 fsSize,
                      const QString &expectedDir, const QStringList &required,
                      QList<QPair<qint64, QByteArray>> *blocks, QString *error);
