#pragma once

#include "table/partitioninfo.h"

#include <QString>

// What a region is called on screen: "/dev/sdb1", "Partition 1" for images, "Unallocated".
QString regionTitle(const partwise::PartitionInfo &region);
// Short form for narrow boxes on the map: "sdb1", "#1", "free".
QString regionShortTitle(const partwise::PartitionInfo &region);
// "primary", "extended", "logical", "unallocated", translated.
QString regionKindTitle(partwise::PartitionInfo::Kind kind);
