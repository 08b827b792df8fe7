#pragma once

#include <QString>

namespace partwise {

// Whether a filesystem that records its bytes per sector (FAT, NTFS) can be given the sector
// size of another disk: `what` says what is converted, or why it cannot be.
struct SectorSizeVerdict
{
    bool converts = false;
    QString what;
};

} // namespace partwise
