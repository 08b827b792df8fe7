#pragma once

// A disk copy's plan, progress and result as JSON and back: what `partwise-cli serve` sends for
// copy-plan and copy, so that the window's Copy Disk wizard, run through a helper, shows the
// plan exactly as copyPlanText() words it and follows the copy.
//
// Nothing read here is ever run: the helper plans again itself when asked to copy and refuses
// when its fresh plan places the partitions elsewhere than the person saw ("expect"). Still, the
// window must not be misled or crash on what a helper sends (another machine, another version),
// so reading back checks every field's type and range (sector sizes 512 or 4096, sectors within
// the target's size, end not before start, partition numbers 1 to 128, names known, lists no
// longer than kMaxRegions) and refuses the whole object with the field named.

#include "ops/copyrunner.h"

#include <QJsonObject>
#include <QList>

namespace partwise {

QJsonObject copyPlanToJson(const CopyPlan &plan);
bool copyPlanFromJson(const QJsonObject &json, CopyPlan *plan, QString *error);

// copy's "expect": where the person saw each partition land, in the plan's order.
QJsonArray copyExpectJson(const CopyPlan &plan);
// Whether `fresh` places the same partitions, in the same order, on the same sectors as
// `expect` says; false (with the problem) when `expect` is not such a list.
bool copyMatchesExpect(const QJsonValue &expect, const CopyPlan &fresh, QString *problem);

QJsonObject copyProgressToJson(const CopyProgress &progress);
// Every number clamped into its range; a missing one reads as 0.
CopyProgress copyProgressFromJson(const QJsonObject &json);

// "ok", "resumable", "error", "journal", "backup_folder", "checks".
QJsonObject copyResultToJson(const CopyResult &result);
bool copyResultFromJson(const QJsonObject &json, CopyResult *result, QString *error);

} // namespace partwise
