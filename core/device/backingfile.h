#pragma once

#include <QString>

namespace partwise {

// The file under a loop device: a disk image file or a block device. Its name is resolved once
// (a link followed, as the user's own helper may: the root helper's guard has refused links
// for a user before), judged on the open descriptor, and never looked up by name again
// (ARCHITECTURE.md, the root helper's threat model).

// Opens `path` for a loop device (O_RDONLY or O_RDWR, close-on-exec) and returns the
// descriptor, or -1 with *error in a person's words.
int openBackingFile(const QString &path, bool readOnly, QString *error);

// Why the open `fd` cannot back a loop device, or an empty string when it can. `name` is how
// the message calls it.
QString unusableBacking(int fd, bool readOnly, const QString &name);

} // namespace partwise
