#pragma once

// Before a realignment writes anything, every filesystem it will shrink or move passes its own
// read-only check. Moving a damaged filesystem moves the damage, and shrinking one can make it
// worse: such a partition is left alone, and the tool's own words say why.

#include "align/realignplan.h"
#include "table/disklayout.h"

#include <QSet>

#include <functional>

// An empty string when every filesystem the moves touch is clean (or cannot be checked here,
// which `log` is told), otherwise what the check found and what to do about it. Partitions in
// `checked` are passed over; each clean one is added to it.
QString checkBeforeRealigning(const DiskLayout &layout, const QList<PartitionMove> &moves,
                              QSet<int> *checked, const std::function<void(const QString &)> &log);
