#pragma once

// A partition table write that a power cut cannot leave half done. libparted's commit writes
// several places one after another (an MBR and its chain of EBRs; GPT's protective MBR, primary
// header and array, backup array and header), and a cut between them leaves a table no tool
// reads as either the old one or the new. So the commit runs against a copy-on-write view of
// the whole disk (fs/cowwindow.h): the blocks libparted wrote are collected there, written with
// checksums to a redo record beside the job journal (move/redorecord.h) and synced, and only
// then written in place and the disk flushed; the record then goes, and the kernel is told.
// A cut while the blocks are written leaves a committed record: resume applies it again from
// the start (replayTableRecord()) before it reads the disk. A record cut short before its commit
// marker was never applied, and is discarded.

#include "fs/journaledresize.h"

typedef struct _PedDisk PedDisk;

namespace partwise {

// Where the table writes of the job whose journal is `jobJournal` are recorded, and the tag of
// its operation `operation` (0 for a realignment): the same when the job is resumed.
RedoJournal tableRedo(const QString &jobJournal, int operation,
                      const std::function<void(const QString &)> &log);

// Writes `disk`'s table through the record `redo` (see above); for a block device (`isImage`
// false) the kernel is told afterwards. A record already there is of no step of this job (resume
// writes an interrupted one and removes it first, and a new job removes those of a journal
// deleted by hand): it is discarded, never applied. Where no view can be had (no FUSE), the
// commit goes to a scratch image of the table's sectors (ops/scratchtablecommit.h) and the
// same record is made from it. False with *error; nothing was written when the error says so.
bool commitTableJournaled(PedDisk *disk, bool isImage, const RedoJournal &redo, QString *error);

// Before a resumed job reads `target`: applies the committed record of the interrupted step's
// table write, if one is there, and removes it; a torn one or one of another step is discarded.
// False with *error when the record is damaged (nothing written) or could not be applied.
bool replayTableRecord(const QString &target, const RedoJournal &redo, QString *error);

} // namespace partwise
