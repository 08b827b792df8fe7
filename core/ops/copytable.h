#pragma once

// The last step of a disk copy (copyrunner.h): the new partition table through libparted, the
// identifiers libparted cannot set (partition and type GUIDs, MBR type bytes, the disk's
// identifier) through sfdisk, the MBR's boot code again and GRUB's pointers. Run again on resume:
// each part writes the same bytes a second time.

#include "ops/copyjournal.h"

#include <functional>

namespace partwise {

bool writeCopyTable(const CopyJournal &journal, const std::function<void(const QString &)> &log,
                    QString *error);

} // namespace partwise
