#pragma once

#include "table/disklayout.h"

namespace partwise {

// Disks other tools made that Partwise reads but never edits (ARCHITECTURE.md, "Disks other
// tools made"): a hybrid ISO, whose partitions are windows into one ISO 9660 filesystem, and
// partition tables other than GPT and MBR (Mac, BSD, Sun, SGI, Amiga, PC-98, Atari), which
// libparted reads but whose edits it checks only by assertions that abort the process, and an
// image whose own hints disagree about its sector size (device/sectorsizehints.h), and a GPT
// one of whose two copies is missing or damaged (until sgdisk or gdisk repairs it).
// Returns the sentence that refuses a job on its partitions (realign, apply, copy, resume),
// or an empty string when the disk may be edited.
QString foreignDiskRefusal(const DiskLayout &layout);

// Read before a journal is resumed: the refusal when `path`, read with `sectorSize`-byte
// sectors, has a table other than GPT or MBR (a journal an older Partwise left on a Mac map would
// make libparted abort again). Only the label is judged: a hybrid ISO an older move has already
// changed is better finished than left half moved. Empty when it may be resumed or is unreadable
// (the job itself then says why).
QString foreignLabelRefusal(const QString &path, qint64 sectorSize);

// True when Partwise edits this kind of partition table ("gpt", "msdos").
bool isEditableTableType(const QString &tableType);

} // namespace partwise
