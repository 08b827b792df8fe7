#pragma once

#include "device/drivereport.h"
#include "device/sectortopology.h"

#include <QString>

namespace partwise {

// One disk or disk image as Partwise sees it.
struct DeviceInfo
{
    QString path;
    QString model;
    qint64 sizeBytes = 0;
    qint64 lengthSectors = 0; // in logical sectors
    bool isImage = false;     // a regular file rather than a block device
    bool readOnly = false;    // opened or openable read-only only
    // Read by a helper (`partwise-cli serve`, as root here or on another machine): `path` is
    // the helper's, not one this process may open. Set by whoever received the layout.
    bool readByHelper = false;
    SectorTopology topology;
    // Images only: why the logical sector size read from the image's contents is in doubt (its
    // hints disagree); nothing is written to it until a --sector-size names it.
    QString sectorSizeDoubt;
    DriveReport drive; // what the drive said through smartctl, when readDisk was asked to ask
};

} // namespace partwise
