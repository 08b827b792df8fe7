#pragma once

#include <QString>
#include <QtGlobal>

namespace partwise {

struct ImageSectorSize
{
    qint64 bytes = 512;
    QString doubt; // why the image's own hints disagree (nothing may be written); else empty
};

// Disk images carry no sector size of their own. A GPT header sits in LBA 1, so finding its
// signature at byte 4096 (and not at 512) means the image was laid out with 4096-byte sectors.
// Without a GPT, the filesystems inside the MBR's partitions tell (device/sectorsizehints.h).
ImageSectorSize detectImageSectorSize(const QString &imagePath);

// The logical sector sizes Partwise takes from a person, a plan, a journal or a client: 512,
// 1024, 2048 and 4096, what disks and libparted use. libparted aborts on 1 or 1000, and larger
// ones crash it (a division by zero at 8192, stack overruns beyond), so every forced size passes
// here first, the command line's and the helper's alike.
bool isSupportedSectorSize(qint64 bytes);
// A sector size as a person types it (the command line's and the window's --sector-size): digits
// only, judged before conversion, then isSupportedSectorSize(). False leaves `bytes` alone.
bool parseSectorSize(const QString &text, qint64 *bytes);
// "512, 1024, 2048 or 4096", for messages.
QString supportedSectorSizesText();

} // namespace partwise
