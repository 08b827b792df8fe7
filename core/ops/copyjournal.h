#pragma once

// The record of a disk copy (copyrunner.h), kept outside the target: the plan as it was shown,
// the step reached, and per partition how many chunks are copied. Saved atomically (write, fsync,
// rename, fsync the folder) as the write journal is, as indented JSON
// {"checksum": HEX, "format": 1, "journal": {...}}, the checksum (move/checksum.h) over the
// compact JSON of {"format", "journal"}. load() accepts only a file whose checksum holds and whose
// every field is present, of its type and in range: a damaged journal could otherwise send resume
// to write to the wrong place.

#include "ops/copyplan.h"

#include <QList>
#include <QString>

namespace partwise {

struct CopyJournal
{
    // 3: the plan is written and read by ops/copyplanjson, as the helper sends it. A journal of
    // format 2 is refused: a copy only reads its source, so it is simply started again.
    static constexpr int kFormat = 3;
    // Steps in order; each is done when the journal says the next one.
    enum class Step {
        Planned, // nothing written yet (scratch copies of shrinking filesystems may be made)
        Cleared, // the target's old table and signatures are gone, boot code carried
        Copying, // partitions' data, chunk by chunk (`chunksDone`, `verified`)
        Fixing,  // each filesystem told its new start, grown, new ids, checked (`fixed`)
        Table,   // the table is being written (then boot pointers)
    };

    QString source, target;
    QString targetIdentity; // what the target is (device/diskidentity.h), bound to the journal
    bool verify = true;
    QString backupFolder;
    QString scratchFolder; // shrunk copies of filesystems, when the plan shrinks one
    CopyPlan plan;
    Step step = Step::Planned;
    QList<qint64> chunksDone; // parallel to plan.partitions
    // What the chunks were cut from (a checksum of the list of used extents): resume continues
    // after `chunksDone` only when the source gives the same list again, else starts over.
    QStringList chunkSignatures;
    QList<bool> verified; // parallel to plan.partitions
    QList<bool> fixed;    // parallel to plan.partitions

    bool save(const QString &path, QString *error) const;
    static bool load(const QString &path, CopyJournal *journal, QString *error);
    static bool remove(const QString &path);
    // Whether `path` holds a copy journal rather than a realignment's (both are JSON with a
    // "journal" object; a copy's has its plan), read as load() reads it. For `resume --journal`.
    static bool isCopyJournal(const QString &path);
};

QString copyStepName(CopyJournal::Step step);

// Whether a copy onto `target` was left unfinished (its journal is there).
bool copyJournalExists(const QString &target, const QString &journalPath = QString());
// The journal of an unfinished copy onto `target`, to offer to finish, or empty: none, or one
// written for another disk that had `target`'s name (device/diskidentity.h). A journal too
// damaged to say is offered, for resume to say what is wrong with it.
QString interruptedCopyJournal(const QString &target);

} // namespace partwise
