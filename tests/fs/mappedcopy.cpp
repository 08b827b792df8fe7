#include "mappedcopy.h"

#include "move/datamover.h"

#include <QDirIterator>
#include <QFile>
#include <QHash>

using namespace partwise;

using partwise::move::Extent;

namespace {
constexpr qint64 kMiB = 1 << 20;
}

// A sparse file of `size` zeros holding only `extents` of `source`'s filesystem at offset,
// copied there by the data mover itself: the filesystem is parked past the end of the zeros,
// the mover moves it down to offset with the map (verifying what it copied), and the file is
// cut back to `size`. What the mover leaves out of a map is what a realignment would lose.
bool copyExtents(const QString &source, const QString &target, qint64 offset, qint64 size,
                 const std::vector<Extent> &extents, QString *error)
{
    const qint64 fsBytes = size - offset;
    const qint64 parked = (size + kMiB - 1) / kMiB * kMiB;
    QFile in(source);
    QFile out(target);
    QFile::remove(target);
    if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly) ||
        !out.resize(parked + fsBytes)) {
        *error = QStringLiteral("cannot open %1 or %2").arg(source, target);
        return false;
    }
    for (qint64 done = 0; done < fsBytes;) {
        const qint64 n = std::min<qint64>(fsBytes - done, 4 * kMiB);
        if (!in.seek(offset + done) || !out.seek(parked + done)) {
            *error = QStringLiteral("seek to %1 failed").arg(done);
            return false;
        }
        const QByteArray data = in.read(n);
        if (data.size() != n || out.write(data) != n) {
            *error = QStringLiteral("parking %1 bytes at %2 failed").arg(n).arg(done);
            return false;
        }
        done += n;
    }
    out.close();
    partwise::move::MoveRequest request;
    request.devicePath = target;
    request.sourceOffset = std::uint64_t(parked);
    request.destinationOffset = std::uint64_t(offset);
    request.length = std::uint64_t(fsBytes);
    request.extents = extents;
    request.verify = true;
    partwise::move::DataMover mover;
    const partwise::move::MoveOutcome outcome =
        mover.run(request, target + QStringLiteral(".journal"));
    if (!outcome.ok()) {
        *error = outcome.message;
        return false;
    }
    if (!QFile::resize(target, size)) {
        *error = QStringLiteral("cannot cut %1 back to %2 bytes").arg(target).arg(size);
        return false;
    }
    return true;
}

// Where the first 4 KiB of `needle` lie in the filesystem at offset of `image`; -1 if nowhere.
qint64 locate(const QString &image, qint64 offset, qint64 fsSize, const QByteArray &needle)
{
    QFile file(image);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray head = needle.left(4096);
    constexpr qint64 kStep = 8 * kMiB;
    for (qint64 at = 0; at < fsSize; at += kStep) {
        file.seek(offset + at);
        const QByteArray chunk = file.read(kStep + head.size());
        const qsizetype found = chunk.indexOf(head);
        if (found >= 0)
            return at + found;
    }
    return -1;
}

// Without a driver (F2FS here), where each whole 4 KiB block of the expected files lies in the
// source image: found by content (the files are random, so every block is unique), offsets from
// the filesystem's start. Blocks not in a block of their own (inline data, a partial last
// block) are left out; `required` files must be found whole.
bool locateFileBlocks(const QString &image, qint64 offset, qint64 fsSize,
                      const QString &expectedDir, const QStringList &required,
                      QList<QPair<qint64, QByteArray>> *blocks, QString *error)
{
    QFile file(image);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(offset)) {
        *error = QStringLiteral("cannot read %1").arg(image);
        return false;
    }
    QHash<QByteArray, qint64> index;
    const QByteArray zeros(4096, '\0');
    for (qint64 at = 0; at < fsSize; at += 4096) {
        const QByteArray block = file.read(4096);
        if (block.size() == 4096 && block != zeros)
            index.insert(block.left(32), at);
    }
    QDirIterator it(expectedDir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile source(it.next());
        if (!source.open(QIODevice::ReadOnly))
            return false;
        const bool mustFind = required.contains(it.fileName());
        for (QByteArray block = source.read(4096); block.size() == 4096;
             block = source.read(4096)) {
            const qint64 at = index.value(block.left(32), -1);
            if (at >= 0 && file.seek(offset + at) && file.read(4096) == block)
                blocks->append({at, block});
            else if (mustFind) {
                *error = QStringLiteral("a block of %1 is not in the image").arg(it.fileName());
                return false;
            }
        }
    }
    return true;
}
