#pragma once

#include <QString>
#include <QtGlobal>

namespace partwise {

// Disk images carry no sector size of their own. A GPT header sits in LBA 1, so finding its
// signature at byte 4096 (and not at 512) means the image was laid out with 4096-byte sectors.
// Returns 512 or 4096.
qint64 detectImageSectorSize(const QString &imagePath);

} // namespace partwise
