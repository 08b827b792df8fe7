#pragma once

#include "align/misalignmentreport.h"
#include "boot/bootinventory.h"

#include <QJsonObject>

namespace partwise {

// One disk's check: what was read and how it was judged.
struct DiskCheck
{
    DiskLayout layout;
    MisalignmentReport alignment;
    // What boots from the disk; absent when not read (then the JSON has no "boot" fields).
    std::optional<BootInventory> boot;
    int misalignedLayerCount() const;
    // A misaligned layer counts as a misaligned partition does (`check` exits 1).
    bool hasMisaligned() const { return alignment.hasMisaligned() || misalignedLayerCount() > 0; }
};

// The JSON object for one device, exactly as README.md's "Checking alignment from the command line"
// specifies (plus a "warnings" array).
QJsonObject diskCheckToJson(const DiskCheck &check);
// A readable table: one row per partition, "misaligned by N bytes" where it applies.
QString diskCheckToText(const DiskCheck &check);

} // namespace partwise
