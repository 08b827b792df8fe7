#pragma once

// The references that follow a filesystem's new UUID given by Apply (the window's "New UUID", a
// plan file's new-uuid): every file of the disk's ext2/3/4 and FAT filesystems that names the
// old UUID (boot/referencefiles.h: fstab, crypttab, GRUB, boot loader entries, extlinux/syslinux,
// the kernel's command line) rewritten to the new one in the same operation, with the copy's
// pieces (ops/copyreferences.h): a private mount for the edit, each changed file kept beside
// itself, the filesystem's check after. Running it again finishes a run that was stopped, so a
// resume of the operation simply repeats it.

#include "boot/identityrewrite.h"
#include "table/disklayout.h"

#include <QList>
#include <QString>

#include <functional>

namespace partwise {

struct Operation;

// Gives each new-uuid operation of `operations` that has none its UUID, and the UUID it replaces,
// from the filesystem `layout` shows in its partition (one a queue formats first is chosen when
// it runs). Before a plan is shown, so the plan names what Apply writes and journals.
void chooseNewUuids(const DiskLayout &layout, QList<Operation> *operations);

// The suffix of the backups a new UUID's edit keeps (".partwise-" and the new UUID's first 8
// hex digits): the same on every run of the operation.
QString newUuidBackupSuffix(const QString &newUuid);

// The files looked at, for the plan ("/etc/fstab, /etc/crypttab, ...").
QString referenceFileList();

// Rewrites `change` in the files of every filesystem of `layout` Partwise edits that is not in
// use (those in use, and those of other kinds, are named in the log). False with `error` on
// the first failure.
bool followNewUuid(const DiskLayout &layout, const IdentityChange &change,
                   const std::function<void(const QString &)> &log, QString *error);

} // namespace partwise
