#pragma once

// What boots from a disk, read back from a device object of `check --json` (read-disk's
// answer): its "boot" object and each partition's "boot_loader" (README.md, "What boots from a
// disk"). The helper may be on another machine, so every field is taken with its type and
// range and every name must be one Partwise writes. The JSON carries less than a reading of
// the disk (no block list of core.img, no disk signatures in BCD devices), enough for the
// window to show what boots and to say what a move does to it; the helper checks again on
// the disk itself before it writes.

#include "boot/bootinventory.h"

#include <QJsonObject>

#include <optional>

namespace partwise {

// Null when `device` has no "boot" (a helper of an older Partwise) or when a field is wrong;
// then `problem` names the first wrong one.
std::optional<BootInventory> bootInventoryFromJson(const QJsonObject &device, QString *problem);

} // namespace partwise
