#pragma once

// Whether the user a root helper works for could read a disk's bytes without that helper.
//
// Root may read every disk; a user only what the kernel lets them open. Whatever the root helper
// copies, pastes or mounts for a user ends up where the user reads it (their own image, their
// folder), so a source must be one the user could have read alone: a node the user may open (a
// member of the disk group, an ACL), or a loop device over a file the user may open. udisks
// attaches a user's image as /dev/loopN, a node only root and the disk group open; its bytes are
// still the user's file's, found by the inode the kernel holds (loopbacking.h), never by name.

#include <QString>

#include <sys/types.h>

namespace partwise {

// True when user `uid` could open the block device `disk` (a whole disk or a partition) for
// reading, or the file or device behind it when it is a loop device. False, with `why` in a
// person's words, otherwise and whenever it cannot be told.
bool userMayReadDisk(const QString &disk, uid_t uid, QString *why);

} // namespace partwise
