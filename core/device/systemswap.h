#pragma once

// Whether a partition is the system's own swap: /etc/fstab names it. Root working for a user
// turns off only swap areas the user's own disks hold; turning off the system's swap would let
// any user push the machine into memory pressure and free the partition to be written.

#include "device/partitionnode.h"

#include <QString>

namespace partwise {

// True when an entry of `fstab` of type swap names `node`: by path (the same device number), by
// UUID= or LABEL= of its swap signature, or by PARTUUID= or PARTLABEL= of its partition entry.
// `entry` receives the fstab source that matched. An fstab that exists but cannot be read, or a
// node libblkid cannot probe while fstab names swap by tag, counts as a match (entry empty for
// the first): what cannot be looked at is not taken for "not the system's".
bool isSystemSwap(const PartitionNode &node, QString *entry = nullptr,
                  const QString &fstab = QStringLiteral("/etc/fstab"));

} // namespace partwise
