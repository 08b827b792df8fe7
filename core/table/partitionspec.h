#pragma once

#include "table/partitioninfo.h"

namespace partwise {

// A partition to be written at an exact place: sectors already decided by core/align (or, for
// practice disks, deliberately legacy ones).
struct PartitionSpec
{
    PartitionInfo::Kind kind = PartitionInfo::Kind::Primary;
    qint64 startSector = 0;
    qint64 endSector = 0; // inclusive
    QString name;         // GPT only
    QStringList flags;    // libparted flag names
    QString filesystem;   // sets the MBR type id / GPT type GUID hint; formatting is separate
    QString label;        // used by whoever formats it
    int number = 0;       // 0: libparted numbers it; else kept (primaries and GPT entries)
};

} // namespace partwise
