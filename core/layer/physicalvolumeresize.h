#pragma once

// An LVM physical volume following its partition, as GParted and KDE Partition Manager do:
// `pvresize` after the partition grew (the volume takes the new device size), and
// `pvresize --setphysicalvolumesize` before it shrinks. Whether a shrink fits is read from pvs:
// the extents past the new end must all be free. LVM writes its metadata as a new copy and then
// commits it, so a cut during pvresize leaves the old or the new size, never half of one; running
// it again to the same size changes nothing, which is what resume does.

#include "base/toolrunner.h"

namespace partwise {

// The physical volume's space, from `pvs --segments`.
struct PhysicalVolumeSpace
{
    bool ok = false;
    QString error;
    qint64 firstExtentBytes = 0; // pe_start
    qint64 extentBytes = 0;      // the group's extent size; 0 for a volume in no group
    qint64 allocatedEnd = 0;     // one past the last extent a logical volume uses
    QString lastVolume;          // the logical volume using that extent
};
PhysicalVolumeSpace physicalVolumeSpace(const QString &node);

// Empty when the physical volume on `node` fits in `newBytes`; otherwise why not, in pvs's
// terms (which volume holds extents past the new end), with what to do instead.
QString physicalVolumeShrinkProblem(const QString &node, qint64 newBytes);

// pvresize of the volume on `node` to `newBytes` (a shrink, checked against pvs first), or to
// the whole device when `newBytes` is 0 (after the partition grew).
ToolResult resizePhysicalVolume(const QString &node, qint64 newBytes);

// "pvresize /dev/sdb2 to 120 MiB": the step as a plan line says it.
QString physicalVolumeResizeLine(const QString &node, qint64 newBytes);

} // namespace partwise
