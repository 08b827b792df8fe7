#pragma once

// One partition's data copied from one disk to another place, and the filesystem told where it
// now is: the pieces a disk copy (copyrunner.h) runs once per partition, and a Paste
// (pasteexecution.h) once. The source is only read.

#include "fs/journaledresize.h"
#include "move/blockio.h"
#include "move/moverequest.h"
#include "ops/copyplan.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <vector>

namespace partwise {

// The pieces a partition's data is copied in: its extents cut to at most 4 MiB.
std::vector<move::Extent> copyChunksOf(const std::vector<move::Extent> &extents);
// A checksum of the chunk list: a resume continues after the chunks done only when the source
// gives the same list again.
QString copyChunkSignature(const std::vector<move::Extent> &chunks);

struct ChunkCopyRequest
{
    move::BlockIo *from = nullptr;
    quint64 fromBase = 0; // the byte of `from` that chunk offsets count from
    move::BlockIo *to = nullptr;
    quint64 toBase = 0;
    std::vector<move::Extent> chunks; // from copyChunksOf()
    qint64 chunksDone = 0;            // already copied and durable (a resume): skipped
    bool verify = true;               // read every chunk back and compare
    QString what;                     // "partition 2", for messages
    QString cancelledText;            // the sentence a cancel ends with
    const std::atomic<bool> *cancel = nullptr;
    // After each sync (about once a second and at the end): the chunks now durable. False
    // stops the copy with *error.
    std::function<bool(qint64 chunksDone, QString *error)> persist;
    // Bytes counted done: `now` when copied in this run, else skipped as copied before.
    std::function<void(quint64 bytes, bool now)> copied;
    std::function<void()> verifying;
    std::function<void(const QString &)> log;
};

struct ChunkCopyResult
{
    bool ok = false;
    QString error;
    qint64 chunksDone = 0; // what a later run may skip (a verify mismatch sets it back)
};

// Copies the chunks (zeros punched as holes where the target can), syncing and persisting the
// progress, then reads them back when asked. Every failure leaves the target resumable.
ChunkCopyResult copyChunks(const ChunkCopyRequest &request);

// What a copied filesystem needs at its new place, done by offset inside `target`: swap made
// anew; otherwise, between sector sizes, a FAT's or NTFS's boot sector given the target's
// (fs/fatsectorsize.h, fs/ntfssectorsize.h), its recorded start (hidden sectors) corrected, grown
// when the plan says, a new
// UUID when `newIds`, and its own read-only check. `check` receives "partition N (fs): clean".
// The grow and the new UUID write through one redo record (fs/journaledresize.h) at `redo`'s
// path with ".finish.redo" added, so the step may be done again after a kill or a power cut; the
// caller's journal removal takes it (move/redorecord.h's removeRedoRecordsOf).
bool finishCopiedFilesystem(const QString &target, qint64 sourceSectorSize, qint64 targetSectorSize,
                            const CopyPartitionPlan &p, bool newIds, const RedoJournal &redo,
                            const std::function<void(const QString &)> &log, QString *check,
                            QString *error);

} // namespace partwise
