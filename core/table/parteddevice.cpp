#include "table/parteddevice.h"

#include <parted/parted.h>

PedDevice *getPartedDevice(const QString &path, bool isImage, qint64 imageSectorSize,
                           qint64 imageBytes)
{
    PedDevice *dev = ped_device_get(path.toLocal8Bit().constData());
    if (dev && isImage) {
        dev->sector_size = imageSectorSize;
        dev->phys_sector_size = imageSectorSize;
        dev->length = imageBytes / imageSectorSize;
    }
    return dev;
}
