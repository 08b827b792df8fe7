#pragma once

#include "table/disklayout.h"

#include <optional>

struct DiskReadOptions
{
    qint64 forcedSectorSize = 0; // images only: 0 detects (GPT header at byte 4096 means 4Kn)
    std::optional<SectorTopology> topologyOverride; // simulate what a drive reports
    bool probeFilesystems = true;
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
