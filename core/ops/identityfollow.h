#pragma once

// The references that follow a filesystem's new UUID or label given by Apply (the window's "New
// UUID" and "Filesystem Label", a plan file's new-uuid and label): every file of the disk's
// ext2/3/4 and FAT filesystems that names the old UUID, or LABEL= the old label
// (boot/referencefiles.h: fstab, crypttab, GRUB, boot loader entries, extlinux/syslinux, the
// kernel's command line) rewritten to the new one in the same operation, with the copy's pieces
// (ops/copyreferences.h): a private mount for the edit, each changed file kept beside itself,
// the filesystem's check after. Running it again finishes a run that was stopped, so a resume
// of the operation simply repeats it.

#include "boot/identityrewrite.h"
#include "table/disklayout.h"

#include <QList>
#include <QString>

#include <functional>

namespace partwise {

struct Operation;

// Gives each new-uuid operation of `operations` that has none its UUID, and the UUID it replaces,
// and each label operation the label it replaces, from the filesystem `layout` shows in its
// partition (one a queue formats first is left alone). Before a plan is shown, so the plan names
// what Apply writes and journals, and a resume follows the same old id.
void chooseNewIdentities(const DiskLayout &layout, QList<Operation> *operations);

// The suffix of the backups an edit for `change` keeps: ".partwise-" and the new UUID's first 8
// hex digits, or for a label 8 hex digits of its SHA-1 (a label may hold '/'); the same on every
// run of the operation.
QString identityBackupSuffix(const IdentityChange &change);

// Whether LABEL= references can follow `label`: fstab and boot entries cannot name one with
// whitespace, a comma, a semicolon or a quote unescaped (and such an old one is never matched).
bool labelFollowable(const QString &label);

// The files looked at, for the plan ("/etc/fstab, /etc/crypttab, ...").
QString referenceFileList();

// Rewrites `change` (a UUID or a label) in the files of every filesystem of `layout` Partwise edits
// that is not in use (those in use, and those of other kinds, are named in the log). False with
// `error` on the first failure.
bool followIdentityChange(const DiskLayout &layout, const IdentityChange &change,
                          const std::function<void(const QString &)> &log, QString *error);

} // namespace partwise
