#pragma once

// Reading a file a user named with that user's rights, not root's. The root helper takes a
// plan's key file (a LUKS passphrase) by name; read as root, a file only root may read would
// become the passphrase of a volume on the user's disk, which the user could then test guesses
// against. A child process takes the user's uid, gid and groups, opens and reads the file, and
// hands the bytes back through a pipe; whatever the user could not read, it cannot either.

#include <QByteArray>
#include <QString>

#include <sys/stat.h>
#include <sys/types.h>

namespace partwise {

// At most `maxBytes` of the regular file `path`, read as `uid` (with that user's groups). False
// with a reason in `why` when the user may not read it, it is not a regular file, or it is
// larger than `maxBytes`.
bool readFileAsUser(const QString &path, uid_t uid, qint64 maxBytes, QByteArray *out, QString *why);

// Whether `uid` (with that user's groups) may open `path` for reading: a child process that is
// that user opens it (O_RDONLY | O_NONBLOCK) and hands back the fstat of what it opened, for the
// caller to compare with the object it means. ACLs and every other rule of the kernel count, as
// they would for the user. False with a reason in `why` when the user may not.
bool openedByUser(const QString &path, uid_t uid, struct stat *opened, QString *why);

} // namespace partwise
