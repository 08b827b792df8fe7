#pragma once

// Opening files without being steered by links. Partwise runs as root for a user (the helper
// started through pkexec) and keeps journals, backups and scratch files; a link planted where
// one of them is about to be created or read would make root write or read another file. So
// every file Partwise creates is created new (O_EXCL) and never through a link (O_NOFOLLOW),
// a file it reads back is read only when it is a regular file, and at most a known size, and a
// folder it keeps for itself is created 0700. The kernel resolves; nothing here compares names.

#include <QByteArray>
#include <QString>

#include <sys/types.h>

namespace partwise {

// Resolves an absolute path one component at a time, never following a link (each component is
// opened O_PATH | O_NOFOLLOW relative to the folder before it, and a link is refused with
// ELOOP), and returns an O_PATH descriptor of what it names; opening that cannot block, even on
// a FIFO, and fstat() on it tells what it is. `nameStable` says whether only root could have
// changed what the path names: every folder on the way belongs to root and no one else may write
// to it. -1 with errno set otherwise.
int openPathNoFollow(const QString &absolutePath, bool *nameStable);

// Creates `path` anew (a stale file or link of that name is removed first, never followed):
// O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode 0600. A descriptor, or -1 with errno set.
int createFileExclusively(const QString &path, int accessFlags = 0x1 /* O_WRONLY */);

// Opens an existing regular file without following a link in its last component and without
// blocking on a FIFO; anything that is not a regular file is refused (errno EINVAL).
int openRegularNoFollow(const QString &path, int accessFlags);

// Reads a regular file of at most `maxBytes` (no link, no FIFO, no device) that belongs to this
// process's user or to root: Partwise reads back only its own files (journals, whose content is
// run), and one another user put in a shared folder (beside root's image in /tmp) is not its
// own. False with the reason in `why` otherwise; a file past the bound is refused whole.
bool readRegularFileBounded(const QString &path, qint64 maxBytes, QByteArray *out, QString *why);

// Creates `folder` and any missing parents (0700), without following a link, and makes the last
// one 0700. Refused when a folder on the way may be changed by another user: one not owned by
// root or this process's user (for root: not owned by root), or writable by others without
// the sticky bit.
bool makePrivateFolder(const QString &folder, QString *why);

} // namespace partwise
