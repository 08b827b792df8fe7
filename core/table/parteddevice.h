#pragma once

#include <QString>

typedef struct _PedDevice PedDevice;

// Gets a libparted device for a block device or an image file. libparted counts image files in
// 512-byte sectors; `imageSectorSize` gives an image its real unit (4096 for 4Kn images).
// Call inside a PartedSession; release with ped_device_destroy.
PedDevice *getPartedDevice(const QString &path, bool isImage, qint64 imageSectorSize,
                           qint64 imageBytes);
