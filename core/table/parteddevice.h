#pragma once

#include <QString>

typedef struct _PedDevice PedDevice;

namespace partwise {

// Gets a libparted device for a block device or an image file. libparted counts image files in
// 512-byte sectors; `imageSectorSize` gives an image its real unit (4096 for 4Kn images).
// Call inside a PartedSession; release with ped_device_destroy.
PedDevice *getPartedDevice(const QString &path, bool isImage, qint64 imageSectorSize,
                           qint64 imageBytes);

// Owns a PedDevice and keeps it open while it lives. Without it libparted opens and closes the
// device around each call, and every open of a disk syncs each of its partitions' nodes
// (milliseconds each): reading one table took several such opens.
class OpenPartedDevice
{
public:
    explicit OpenPartedDevice(PedDevice *device);
    ~OpenPartedDevice();
    OpenPartedDevice(const OpenPartedDevice &) = delete;
    OpenPartedDevice &operator=(const OpenPartedDevice &) = delete;

    PedDevice *get() const { return m_device; }

private:
    PedDevice *m_device;
    bool m_open;
};

} // namespace partwise
