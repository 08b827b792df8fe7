#pragma once

// What `partwise-cli serve` answers, as JSON: a disk as `check --json` describes it plus its
// free space, a realignment plan, a job's result. Field names are the protocol's (README, "The
// helper protocol"); the check object itself comes from report/checkreport.

#include "align/alignmentpolicy.h"
#include "ops/realignrunner.h"
#include "table/disklayout.h"

#include <QJsonArray>
#include <QJsonObject>

namespace partwise {

QJsonArray freeSpace(const DiskLayout &layout);
QJsonObject deviceJson(const DiskLayout &layout, const AlignmentPolicy &policy);
QJsonObject planJson(const PreparedRealign &prepared, const QString &target);
QJsonObject realignResultJson(const RealignResult &result);
QString stepName(RealignProgress::Step step); // "moving" or "verifying"

} // namespace partwise
