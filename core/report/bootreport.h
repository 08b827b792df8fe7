#pragma once

// What boots from a disk, as `check` prints it: the device's "boot" object, each partition's
// "boot_loader" (README.md, "check --json", documents every field), and text lines.

#include "boot/bootinventory.h"

#include <QJsonObject>
#include <QJsonValue>

namespace partwise {

QJsonObject bootInventoryToJson(const BootInventory &inventory);
// null where nothing boots from the partition or records its start.
QJsonValue partitionBootToJson(const BootInventory &inventory, int number);
// "boot: MBR code grub, core.img at sector 34 (BIOS boot partition 1)", one line per finding.
QStringList bootInventoryLines(const BootInventory &inventory);

} // namespace partwise
