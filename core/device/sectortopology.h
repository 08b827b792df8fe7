#pragma once

#include <QString>
#include <QtGlobal>

namespace partwise {

// What a disk says about its sectors and I/O sizes, in bytes, exactly as reported (sysfs and
// libblkid for block devices; the file itself for images). Policy (what we *assume*) lives in
// core/align; this struct only carries facts, so tests can inject any drive they like.
struct SectorTopology
{
    qint64 logicalSectorSize = 512;
    qint64 physicalSectorSize = 512;
    qint64 minimumIoSize = 512;
    qint64 optimalIoSize = 0;
    qint64 alignmentOffset = 0;
    // Beyond the kernel's word, for block devices (0 where unknown): the physical sector size
    // the drive itself answers (ATA IDENTIFY, SCSI READ CAPACITY(16), through smartctl), and the
    // size and offset a timing probe measured and Partwise remembers for this drive
    // (device/drivemeasurements.h). The offset means something only with a measured size.
    qint64 physicalSectorSizeDrive = 0;
    qint64 physicalSectorSizeMeasured = 0;
    qint64 alignmentOffsetMeasured = 0;
    double writePenaltyMeasured = 0; // straddling writes took this many times as long; 0: not
    // Where the numbers came from, for the info panel ("sysfs/libblkid", "image file",
    // "simulated").
    QString source;

    bool operator==(const SectorTopology &o) const
    {
        return logicalSectorSize == o.logicalSectorSize &&
               physicalSectorSize == o.physicalSectorSize && minimumIoSize == o.minimumIoSize &&
               optimalIoSize == o.optimalIoSize && alignmentOffset == o.alignmentOffset &&
               physicalSectorSizeDrive == o.physicalSectorSizeDrive &&
               physicalSectorSizeMeasured == o.physicalSectorSizeMeasured &&
               alignmentOffsetMeasured == o.alignmentOffsetMeasured;
    }
};

} // namespace partwise
