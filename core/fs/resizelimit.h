#pragma once

// What a filesystem itself says about resizing it, read from its boot sector, beyond what its
// kind allows (fs/sessionabilities.h): a FAT12, which libparted's FAT resizer (fs/fatresize.h,
// the only FAT resizer there is) does not handle, is neither shrunk nor grown. Planners ask this
// before they offer a shrink, so no plan holds a step that cannot run.

#include "fs/filesystemsize.h"

#include <QString>

namespace partwise {

// Empty when nothing in the filesystem of kind `filesystem` (libblkid's name) at `where`,
// `partitionBytes` long, stops it being resized; otherwise why, starting "cannot shrink".
QString resizeLimitOf(const FilesystemLocation &where, qint64 partitionBytes,
                      const QString &filesystem);

} // namespace partwise
