#pragma once

// Identities that follow a copy with new ones (--new-ids): the references inside the copied
// filesystems to their old UUIDs and PARTUUIDs (fstab, crypttab, GRUB, boot loader entries,
// extlinux/syslinux, the kernel's command line: boot/referencefiles.h) rewritten to the new
// ones in the same job, after the new UUIDs are given and before the table is written. An ext
// filesystem is mounted for the edit alone (device/privatemount.h, root only), a FAT one edited
// through mtools; each is checked by its own tool afterwards. Running it again finishes a run
// that was stopped, so the copy's resume simply repeats it.

#include "boot/identityrewrite.h"
#include "fs/filesystemsize.h"
#include "ops/copyplan.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>

namespace partwise {

// Whether the files of a copied `filesystem` are looked at, and why not (empty when they are).
QString copyReferencesSkipReason(const QString &filesystem);

// The plan's lines saying what follows the new ids: which partitions' files are looked at, and
// each partition's new PARTUUID. Empty without --new-ids.
QStringList copyReferencePlanText(const CopyPlan &plan);

// Old -> new for every partition of the plan: its filesystem's UUID (`newUuids`: the target's,
// by target number) and its PARTUUID (`oldPartUuids` by source number; the new one from the plan).
QList<IdentityChange> copyIdentityChanges(const CopyPlan &plan,
                                          const QMap<int, QString> &oldPartUuids,
                                          const QMap<int, QString> &newUuids);

// The PARTUUID a partition has in the plan's new table: its GUID on GPT, the disk id and
// its number on MBR; empty when the plan leaves it to libparted.
QString plannedPartUuid(const CopyPlan &plan, const CopyPartitionPlan &p);

// The backup suffix of this copy's files (".partwise-" and 8 hex digits of the new disk id):
// the same on every run of the job.
QString copyReferenceBackupSuffix(const CopyPlan &plan);

// One filesystem whose files are looked at: where it is, its partition's bytes and number.
struct ReferencePartition
{
    FilesystemLocation where;
    qint64 bytes = 0;
    int number = 0;
    QString filesystem;
};

// Rewrites `changes` in the reference files of one ext2/3/4 (privately mounted, root only) or
// FAT (mtools) filesystem, backups named with `suffix`, and checks it after; `checks` receives
// the check's verdict. Also the window's New UUID (ops/identityfollow.h).
bool followIdsInPartition(const ReferencePartition &part, const QList<IdentityChange> &changes,
                          const QString &suffix, const std::function<void(const QString &)> &say,
                          QStringList *checks, QString *error);

// Rewrites the references on the target (not yet given its table). `checks` receives each
// edited filesystem's check. False with `error` on the first failure.
bool followCopiedIdentities(const CopyPlan &plan, const std::function<void(const QString &)> &log,
                            QStringList *checks, QString *error);

} // namespace partwise
