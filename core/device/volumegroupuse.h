#pragma once

// Whether a block device is a physical volume of a volume group that is in use: any of the
// group's logical volumes active. A volume active on another physical volume of the group does
// not hold this one in sysfs, yet LVM writes the group's metadata to every physical volume, and
// the group's volumes may be extended onto it at any moment: formatting or moving it would break
// the group. Device-mapper's own names say which groups are active (dm/uuid "LVM-" and the
// group's UUID); pvs is asked which group the device belongs to only when one is.

#include <QString>

namespace partwise {

// "/dev/sdb2 is a physical volume of the active volume group vg0 (vg0/home active; deactivate
// it: vgchange -an vg0)"; empty when the device is no physical volume of an active group, or
// the caller cannot ask LVM (not root: it cannot write a disk either).
QString activeVolumeGroupReason(const QString &node);

} // namespace partwise
