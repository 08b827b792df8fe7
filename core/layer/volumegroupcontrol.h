#pragma once

// Activating and deactivating the LVM volume group of a partition that is one of its physical
// volumes, as KDE Partition Manager does: `vgchange -ay` / `-an` (root, and the kernel's
// device-mapper). The group is the one pvs names for the partition, never a name a user gives;
// its logical volumes' devices then hold the partition (device/kernelholder.h), so every job
// refuses to write it while the group is active.

#include <QString>
#include <QStringList>

namespace partwise {

struct VolumeGroupChange
{
    bool ok = false;
    QString error;
    bool refused = false; // nothing tried: no physical volume of a group there
    bool inUse = false;   // deactivation failed: a logical volume is open (mounted, held)
    QString volumeGroup;
    QString uuid;              // the group's, from pvs: what a helper remembers it by
    QStringList activeVolumes; // "vg/lv" of its active logical volumes afterwards
};

// The group of the physical volume on `partitionNode` ("/dev/sdb2"), with its active volumes
// (`ok`); `refused` when the partition is no PV of a group.
VolumeGroupChange volumeGroupOf(const QString &partitionNode);

VolumeGroupChange activateVolumeGroup(const QString &partitionNode);
VolumeGroupChange deactivateVolumeGroup(const QString &partitionNode);

} // namespace partwise
