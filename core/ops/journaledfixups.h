#pragma once

// Partwise's own small writes after a move (a FAT's or NTFS's recorded start, extlinux's, GRUB's
// pointers to a moved core.img) made as power-cut safe as a filesystem tool's: each runs against
// a copy-on-write view (fs/journaledresize.h), the blocks it changed go to a redo record beside
// the job journal (synced), and only then are they written in place and flushed. A cut while
// they are written leaves a committed record that resume writes again whole, instead of a 4 KiB
// block (a boot sector and its neighbours) half old and half new. The record is removed once
// the disk is flushed: the fix-ups find what is done and leave it, so running one again on the
// fixed disk changes nothing.

#include "boot/bootfixups.h"
#include "fs/journaledresize.h"

namespace partwise {

// Where the fix-ups of a job's step are recorded: `step` is the step's own record (its path and
// tag); the fix-ups get a path of their own beside it, so neither is taken for the other.
RedoJournal fixupRedo(const RedoJournal &step);

// fs/filesystemposition.h's updateHiddenSectors() for the filesystem of `partitionBytes` at
// `where`, through `redo`.
bool updateHiddenSectorsJournaled(const FilesystemLocation &where, qint64 partitionBytes,
                                  const QString &filesystem, qint64 newStartSector,
                                  const RedoJournal &redo, QString *error);

// boot/bootfixups.h's fixBootAfterMove() on the disk or image `diskPath`, through `redo`.
BootFixResult fixBootAfterMoveJournaled(const QString &diskPath, qint64 logicalSectorSize,
                                        int number, qint64 oldStart, qint64 newStart,
                                        qint64 movedSectors, const RedoJournal &redo);

// Before a resumed job reads the table of `target`: a committed record of a whole-disk fix-up
// (GRUB's, whose first block holds the MBR and a GPT's header) is written again and removed, as
// a table write's is, since a garbled first block hides the table that resume reads first. A
// record of a partition's fix-up is left to its step; a torn one is discarded. False with *error
// when the record is damaged (nothing written) or could not be written.
bool replayDiskFixupRecord(const QString &target, const RedoJournal &redo, QString *error);

} // namespace partwise
