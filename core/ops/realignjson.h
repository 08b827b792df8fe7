#pragma once

// A realignment's plan and result as JSON and back: what `partwise-cli serve` sends so that the
// window's realignment wizard, run through the helper (pkexec here, ssh for another machine),
// shows exactly what it shows when it plans locally: every move with its partition's
// filesystem, label and UUID, each misaligned partition's ways with their prices and the one
// taken, the partitions skipped and why, what is copied whole, the LUKS/LVM notes, the drive's
// health and where the journals go.
//
// What is trusted: nothing read here is ever run. The window only shows the plan and sends back
// the moves the person saw ("expect"); the helper plans again itself and refuses to run when its
// fresh plan differs, because a helper running as root must never write sectors a client
// describes. Still, the window must not be misled or crash on what a helper sends (it may be
// another machine, or another version), so reading back checks every field's type and range
// (sectors within the layout's disk, end not before start, partition numbers 1 to 256, way and
// preference names known, lists no longer than kMaxRegions, a chosen way among the options) and
// refuses the whole object with the field named. It lives in ops, beside PreparedRealign, because
// report sits below ops (ARCHITECTURE.md, layers); it reads with report/jsonreader.h.

#include "ops/realignrunner.h"

#include <QJsonObject>
#include <QString>

namespace partwise {

QJsonObject preparedRealignToJson(const PreparedRealign &prepared);
// One move, as the plan and the write journal record it.
QJsonObject partitionMoveToJson(const PartitionMove &move);
bool preparedRealignFromJson(const QJsonObject &json, PreparedRealign *prepared, QString *error);

// The keys the helper protocol has always used ("ok", "resumable", "error", "journal",
// "checks") and "shrink_refused".
QJsonObject realignResultToJson(const RealignResult &result);
bool realignResultFromJson(const QJsonObject &json, RealignResult *result, QString *error);

} // namespace partwise
