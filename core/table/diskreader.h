#pragma once

#include "table/disklayout.h"

#include <optional>

namespace partwise {

class OpenDisk;

struct DiskReadOptions
{
    qint64 forcedSectorSize = 0; // images only: 0 detects (GPT header at byte 4096 means 4Kn)
    std::optional<SectorTopology> topologyOverride; // simulate what a drive reports
    bool probeFilesystems = true;
    // Block devices: look up what a timing probe measured on this drive (a sysfs read and a
    // small JSON file; check, create and realign then align to it).
    bool useMeasurements = true;
    // Block devices: ask the drive itself through smartctl (device/drivereport.h). It costs
    // 50–300 ms per drive, a process, and may wake a sleeping disk, so only callers that show
    // the answer (check, the window's info panel) ask; the verdicts then also use the drive's
    // own physical size when it is larger than the kernel's.
    bool askDrive = false;
};

struct DiskReadResult
{
    bool ok = false;
    QString error;             // a sentence a person can act on when !ok
    bool accessDenied = false; // the system would not let us open it (permissions, sandbox)
    DiskLayout layout;
};

// Reads a block device or disk image through libparted (tables) and libblkid (filesystems,
// topology). Never writes: nothing is committed, and libparted's questions get read-only answers.
DiskReadResult readDisk(const QString &path, const DiskReadOptions &options = {});
// The same, for a disk its caller opened once (device/opendisk.h): nothing here opens its name.
DiskReadResult readDisk(const OpenDisk &disk, const DiskReadOptions &options = {});

} // namespace partwise
