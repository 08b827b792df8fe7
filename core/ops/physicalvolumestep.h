#pragma once

// The pvresize step of a Resize on a partition that holds an LVM physical volume
// (layer/physicalvolumeresize.h), placed where a write job finds the partition: its node on a
// disk, a loop device over its range inside an image (root).

#include "base/toolrunner.h"
#include "fs/filesystemsize.h"
#include "fs/journaledresize.h"
#include "table/disklayout.h"

#include <optional>

namespace partwise {

// libblkid's name for an LVM physical volume.
bool isPhysicalVolume(const QString &filesystem);

// Why the physical volume in `p` of `layout` does not fit in `newBytes` (from pvs), or empty.
QString physicalVolumeShrinkRefusal(const DiskLayout &layout, const PartitionInfo &p,
                                    qint64 newBytes);

// The smallest partition the physical volume in `p` fits in: its first extent's offset and every
// extent up to the last one a logical volume uses (pvs). Nothing when pvs cannot tell.
std::optional<qint64> physicalVolumeMinimumBytes(const DiskLayout &layout, const PartitionInfo &p);

// pvresize of the volume at `where`, `partitionBytes` long now: to `newBytes`, or with 0 to the
// whole partition after it grew.
ToolResult resizePhysicalVolumeAt(const FilesystemLocation &where, qint64 partitionBytes,
                                  qint64 newBytes);

// A write job's shrink or grow of what partition `number` holds, `partitionBytes` long now:
// a physical volume through pvresize, in place (LVM writes its metadata as a new copy and then
// commits it, so a cut leaves either size, and resume runs it again to the same size), logged as
// its plan line; a filesystem by its tool on a redo-logged view (fs/journaledresize.h).
// `newBytes` equal to `partitionBytes` is a grow after the partition grew: the volume takes it
// whole.
ToolResult resizePartitionContents(const FilesystemLocation &where, int number,
                                   const QString &filesystem, qint64 partitionBytes,
                                   qint64 newBytes, const RedoJournal &redo);

} // namespace partwise
