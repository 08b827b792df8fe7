#include "table/parteddevice.h"

#include <parted/parted.h>

namespace partwise {

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

OpenPartedDevice::OpenPartedDevice(PedDevice *device)
    : m_device(device), m_open(device && ped_device_open(device))
{
}

OpenPartedDevice::~OpenPartedDevice()
{
    if (m_open)
        ped_device_close(m_device);
    if (m_device)
        ped_device_destroy(m_device);
}

} // namespace partwise
