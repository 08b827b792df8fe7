#pragma once

// What a kernel holder of a block device is, in words its owner knows: /sys/block/X/holders
// lists only kernel names (dm-0, md127), which say nothing of whether a LUKS mapping, an LVM
// logical volume or a RAID array holds the partition, nor how to let it go. The names come from
// sysfs alone (dm/name, dm/uuid, md/), which the kernel keeps for every device-mapper and md
// device: asking lvs or cryptsetup would run tools, and take time, inside every busy check.

#include <QString>
#include <QStringList>

namespace partwise {

// "the open LUKS mapping secret (/dev/mapper/secret; close it: cryptsetup close secret)" for
// the kernel device `holder` ("dm-0"); the bare name when sysfs says nothing more.
QString describeKernelHolder(const QString &holder);

// The kernel devices holding block device `name` ("sdb1"): /sys/class/block/NAME/holders.
QStringList kernelHoldersOf(const QString &name);
// Whether the holder is read-only to everyone (its sysfs `ro` is 1): nothing written through it.
bool kernelHolderIsReadOnly(const QString &holder);

// LVM's device-mapper name "vg-lv" split into its volume group and logical volume: LVM doubles
// every '-' inside either name, so the first single '-' divides them. False for another name.
bool splitLvmName(const QString &dmName, QString *vg, QString *lv);

} // namespace partwise
