// Expected filesystem type, label and UUID from `blkid -p` (low-level probe, no cache).
#pragma once

#include <QString>

namespace pwtest {

struct BlkidInfo
{
    bool found = false; // blkid recognised something (exit 0)
    QString type;       // TYPE, e.g. "ext4", "vfat"; empty when nothing was found
    QString label;      // LABEL
    QString uuid;       // UUID (the filesystem's, not the partition's)
    QString error;      // set when blkid itself failed (not merely "nothing found")
};

// Probes `path` at byte offset `offset` (use 0 for a partition node).
BlkidInfo blkidProbe(const QString &path, qint64 offset = 0);

} // namespace pwtest
