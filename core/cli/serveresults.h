#pragma once

// What `partwise-cli serve` answers, as JSON: a disk as `check --json` describes it plus its
// free space, a realignment plan. Field names are the protocol's (README, "The helper
// protocol"); the check object itself comes from report/checkreport, the wizard's whole plan
// and a realignment job's result from ops/realignjson.

#include "align/alignmentpolicy.h"
#include "boot/bootinventory.h"
#include "ops/realignrunner.h"
#include "table/disklayout.h"

#include <QJsonArray>
#include <QJsonObject>

namespace partwise {

QJsonArray freeSpace(const DiskLayout &layout);
// With `boot`, the check's "boot" and "boot_loader" fields too (read-disk).
QJsonObject deviceJson(const DiskLayout &layout, const AlignmentPolicy &policy,
                       const BootInventory *boot = nullptr);
// realign-plan's fields for people and scripts ("prepared" and "busy" are added beside them).
QJsonObject planJson(const PreparedRealign &prepared, const QString &target);
QString stepName(RealignProgress::Step step); // "moving" or "verifying"

} // namespace partwise
