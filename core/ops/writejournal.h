#pragma once

#include "align/alignmentpolicy.h"
#include "align/realignplan.h"
#include "device/discardsupport.h"
#include "ops/operation.h"

#include <QString>

namespace partwise {

// The record of one write job (a realignment, or an Apply of the pending queue), kept outside
// the disk being changed. Both run through the same steps, so one journal serves both:
//  - `moves`: partitions being shrunk, moved, grown, each with the phase it reached (a
//    realignment's whole plan, or the Resize operation an Apply is running);
//  - `operations`: an Apply's queue, `nextOperation` the first not yet finished, and
//    `tableBefore` the table as it stood when that operation started, so that resume can tell
//    whether its table change was already written.
// Saved atomically (write, fsync, rename, fsync the folder) after every step, so
// `partwise-cli resume` and the GUI's start-up check always know what to do next. The bytes of
// the partition being moved are protected by the data mover's journal next to it.
//
// On disk (format 4) it is indented JSON, {"checksum": HEX, "format": 3, "journal": {...}},
// where the checksum (checksum.h) covers the compact JSON of {"format", "journal"}. load()
// accepts a file only if it is byte for byte what save() writes for its content, the checksum
// holds and every field is present, of its type and sane: a damaged journal could otherwise
// send resume to write data to the wrong place.
struct WriteJournal
{
    enum class Phase { Pending, Shrunk, Moving, Moved, TableUpdated, Done };
    static constexpr int kFormat = 4;

    QString target;
    // What the target is (device/diskidentity.h): resume and the offer to finish go only to the
    // disk the job was writing, never to another that got its name.
    QString diskIdentity;
    qint64 sectorSize = 512;
    bool verify = true;
    QString backupFolder;
    QList<PartitionMove> moves;
    QList<Phase> phases; // parallel to moves
    // A realignment's discard of what its moves leave behind (ops/realigndiscard.h), run once
    // every move is done. Saved only when there is one ("discard": "trim" or "holes"), so
    // journals of earlier versions read as none.
    DiscardWay discard = DiscardWay::None;

    QList<Operation> operations; // an Apply's queue; empty for a realignment
    int nextOperation = 0;
    QString tableBefore;    // tableSummary() when operations[nextOperation] started; empty before
    AlignmentPolicy policy; // what the operations still to run align to

    // Where the journals of a target live by default: next to an image, or in `stateDir`
    // (default /var/lib/partwise/moves) for a block device.
    static QString defaultPath(const QString &target, const QString &stateDir = QString());
    // The data mover's journal for the move in progress.
    QString dataJournalPath(const QString &journalPath) const
    {
        return journalPath + QStringLiteral(".data");
    }

    bool save(const QString &path, QString *error) const;
    // Fails (with `journal` untouched) unless every part of the file checks out. The error then
    // says what is wrong and what is left to do by hand: where the table backup is, and the
    // state of each partition as far as the damaged file can still be read.
    static bool load(const QString &path, WriteJournal *journal, QString *error);
    static bool remove(const QString &path);

    int nextUnfinished() const; // -1 when every move is done
    bool isApply() const { return !operations.isEmpty(); }
};

QString journalPhaseName(WriteJournal::Phase phase);

// `journalPath` when it holds a stopped job of `target` to offer to finish, or empty: no journal
// there, or one written for another disk that had `target`'s name (device/diskidentity.h). A
// journal too damaged to say is offered, for resume to say what is wrong with it.
QString interruptedWriteJournal(const QString &target, const QString &journalPath);

} // namespace partwise
