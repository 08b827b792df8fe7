#include "fs/filesystemkinds.h"

namespace partwise {

bool isExtFilesystem(const QString &fs)
{
    return fs == QLatin1String("ext2") || fs == QLatin1String("ext3") ||
           fs == QLatin1String("ext4");
}

bool isFatFilesystem(const QString &fs)
{
    return fs == QLatin1String("vfat") || fs == QLatin1String("fat16") ||
           fs == QLatin1String("fat32");
}

} // namespace partwise
