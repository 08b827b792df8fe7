#pragma once

// The files of a filesystem that name filesystems and partitions by their ids, and their
// references rewritten when those ids change (a copy with new identities): /etc/fstab,
// /etc/crypttab, /etc/kernel/cmdline, GRUB's grub.cfg and grubenv (in /boot/grub, /grub of a
// separate /boot, /EFI/*/ of an ESP), boot loader entries (/boot/loader/entries/*.conf,
// /loader/entries/*.conf), extlinux's and syslinux's configs. How a file is reached (a mounted
// folder without following links, or mtools on a FAT filesystem) is ReferenceFiles' business;
// what is changed, and the backup, are decided here once.
//
// Each changed file is first kept beside itself as NAME + the job's backup suffix, synced, and
// then rewritten in place (the ids are the same length, so grubenv keeps its 1024 bytes, and the
// file keeps its inode, owner, mode and attributes). A run stopped anywhere is finished by running
// it again: a backup of that name is this job's, so the file's original is read from it.

#include "boot/identityrewrite.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace partwise {

// A filesystem's files as this module needs them. Paths are relative to its root ("etc/fstab").
class ReferenceFiles
{
public:
    enum class Read { Ok, Missing, NotPlain, Failed };
    virtual ~ReferenceFiles() = default;
    // A regular file of at most kMaxReferenceFileBytes. NotPlain: a link, folder, device or
    // larger file, left alone.
    virtual Read read(const QString &path, QByteArray *bytes, QString *why) = 0;
    // The names of the files in `folder` (not followed through links); empty when none.
    virtual QStringList list(const QString &folder) = 0;
    // `path` made anew (replacing one of that name) holding `bytes`, durable on return, with
    // the owner and mode of `like`.
    virtual bool writeNew(const QString &path, const QString &like, const QByteArray &bytes,
                          QString *why) = 0;
    // The existing file `path` rewritten in place to `bytes`, durable on return.
    virtual bool rewrite(const QString &path, const QByteArray &bytes, QString *why) = 0;
};

inline constexpr qint64 kMaxReferenceFileBytes = 1 << 20;

// The files looked at, relative to a filesystem's root; "folder/*.conf" stands for every .conf
// file in that folder, "EFI/*/grub.cfg" for every folder of EFI.
QStringList referenceFilePatterns();

struct ReferenceOutcome
{
    bool ok = true;
    QString error;
    QStringList lines; // what was changed, and what was left alone and why, for the log
    int filesChanged = 0;
};

// Rewrites every reference of `changes` in the files of `files`, keeping each changed file's
// original beside it as NAME + `backupSuffix` (".partwise-1a2b3c4d").
ReferenceOutcome rewriteReferenceFiles(ReferenceFiles &files, const QList<IdentityChange> &changes,
                                       const QString &backupSuffix);

} // namespace partwise
