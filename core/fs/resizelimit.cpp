#include "fs/resizelimit.h"

#include "device/filesystemprobe.h"

namespace partwise {

QString resizeLimitOf(const FilesystemLocation &where, qint64 partitionBytes,
                      const QString &filesystem)
{
    if (filesystem != QLatin1String("vfat"))
        return {};
    // FAT records its own sector size; libblkid reads FAT12/16/32 from the cluster count.
    const FilesystemProbe probe(where.path, 512);
    if (probe.probe(where.offset, partitionBytes).version != QLatin1String("FAT12"))
        return {};
    return QStringLiteral("cannot shrink FAT12 (nor grow it): libparted's FAT resizer, the only "
                          "one, handles FAT16 and FAT32 only; it may move whole");
}

} // namespace partwise
