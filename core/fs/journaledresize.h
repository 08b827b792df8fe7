#pragma once

#include "base/toolrunner.h"
#include "fs/filesystemsize.h"
#include "move/redorecord.h"

#include <functional>

namespace partwise {

// A filesystem's shrink or grow that a power cut cannot leave half-written. The tool
// (fs/filesystemresize.h: resize2fs, ntfsresize, libparted's FAT resizer, btrfs, resize.f2fs)
// runs against a copy-on-write view of the disk (fs/cowwindow.h), so the filesystem itself is
// untouched while it works; the blocks it changed are then written to a redo record
// (move/redorecord.h) beside the job journal and synced, and only then applied in place and the
// disk flushed. The caller records the step as done in its journal, then calls
// finishJournaledResize(), which removes the record.
//
// Run again after an interruption (with the same record path and tag), it finds the committed
// record and applies it again from the start instead of running the tool on a filesystem that
// may be half-written; a record cut short before its commit marker was never applied and is
// discarded, and the tool runs on the untouched filesystem. A record of another step (tag or
// place) is one whose step finished: it is discarded too.
struct RedoJournal
{
    QString path;    // the record: beside the job journal, in the journal's folder
    quint64 tag = 0; // the step of the job (the same on resume)
    std::function<void(const QString &)> log;
    QString what = QStringLiteral("changed blocks"); // the record's blocks, in the log
    // Tests only: receives the record's writes instead of the disk (a simulated disk).
    move::RedoBlockWriter writer;
};

ToolResult resizeFilesystemJournaled(const FilesystemLocation &where, qint64 partitionBytes,
                                     const QString &filesystem, qint64 newBytes,
                                     const RedoJournal &redo);

// Any other tool that changes a filesystem in place (a new UUID, a label) the same way: `tool`
// gets the copy-on-write view of the `regionBytes` at `where` and must write nothing else.
using JournaledTool = std::function<ToolResult(const FilesystemLocation &view)>;
ToolResult runToolJournaled(const FilesystemLocation &where, qint64 regionBytes,
                            const RedoJournal &redo, const JournaledTool &tool);

// Applies the committed record `redo.path` of `region` to `target` (the disk or image; a test's
// `redo.writer` instead) and flushes it. False with *error when the record is not whole and
// committed, a write failed or the flush did.
bool applyJournaledRecord(const QString &target, const move::RedoRegion &region,
                          const RedoJournal &redo, QString *error);

// After the job journal says the step is done. False when the record could not be removed
// (harmless: it is of a finished step, and discarded when met).
bool finishJournaledResize(const RedoJournal &redo);

} // namespace partwise
