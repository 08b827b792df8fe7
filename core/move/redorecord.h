#pragma once

// The redo record of a filesystem tool's writes (fs/journaledresize.h): every block the tool
// changed, with its place and checksum, kept beside the job journal before one byte of it
// reaches the disk. Applying it is idempotent, so a power cut while it is applied is repaired by
// applying it again from the start; a record cut short before its commit marker was never
// applied, and is discarded.
//
// On disk (little-endian, a format of our own):
//   header  64 B: "PWREDO1\0", u32 version, u32 block bytes, u64 region offset, u64 region bytes,
//                 u64 block count, u64 tag, u64 0, u64 checksum64 of the 56 bytes before
//   blocks:       u64 offset in the region, u64 length, u64 checksum64 of the data, the data
//   commit  32 B: "PWCOMMIT", u64 block count, u64 checksum64 of every block's 24-byte head,
//                 u64 checksum64 of the 24 bytes before
// The blocks are synced before the commit marker is written, and the marker before the folder.
// Everything read back is treated as hostile: the region and tag must be the ones expected,
// every block lies inside the region in increasing order at whole blocks, the file's size is
// what the heads add up to, and every checksum holds before the first byte is written.

#include <QString>

#include <functional>

namespace partwise::move {

struct RedoRegion
{
    qint64 offset = 0; // the region's first byte on the disk (or in the image) it is applied to
    qint64 bytes = 0;
    quint64 tag = 0; // which step of the job wrote it
    bool operator==(const RedoRegion &o) const
    {
        return offset == o.offset && bytes == o.bytes && tag == o.tag;
    }
};

enum class RedoState {
    None,      // no record
    Torn,      // cut short before its commit marker: never applied, discard it
    Committed, // whole: apply it
    Other,     // whole, but of another step or region: that step has finished, discard it
    Damaged,   // committed, then damaged: refuse to write anything
};

struct RedoCheck
{
    RedoState state = RedoState::None;
    qint64 blocks = 0;
    QString problem; // why it is torn, other or damaged
};

constexpr qint64 kRedoBlockBytes = 4096;

// Gives block `index`'s offset (from the region's start) and length, and fills `data`.
using RedoBlockSource =
    std::function<bool(qint64 index, qint64 *offset, qint64 *length, char *data)>;
// Writes `length` bytes at `diskOffset`.
using RedoBlockWriter = std::function<bool(qint64 diskOffset, const char *data, qint64 length)>;

// Writes and commits a record of `count` blocks (in increasing offset order) to `path`,
// replacing any there; the file and its folder are synced. False with *error otherwise.
bool writeRedoRecord(const QString &path, const RedoRegion &region, qint64 count,
                     const RedoBlockSource &blocks, QString *error);

RedoCheck checkRedoRecord(const QString &path, const RedoRegion &expected);

// Checks the whole record, then hands every block to `write` at its place on the disk. The
// caller flushes the disk afterwards.
bool applyRedoRecord(const QString &path, const RedoRegion &expected, const RedoBlockWriter &write,
                     QString *error);

// Removes the record and syncs its folder.
bool removeRedoRecord(const QString &path);

// Removes every record of the job whose journal is `journalPath` (the journal's name, a dot,
// anything, ".redo"; regular files only, links left alone), and syncs the folder. Called once
// the journal says their steps are done, before the journal itself goes: a record outliving its
// journal could be taken for a later job's step of the same tag and place.
bool removeRedoRecordsOf(const QString &journalPath);

} // namespace partwise::move
