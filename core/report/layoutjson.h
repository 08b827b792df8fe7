#pragma once

// A whole DiskLayout as JSON and back: what `partwise-cli serve` sends when the window asks
// for a disk (read-disk's "layout"), so that a window fed by a helper, here or on another
// machine over SSH, shows exactly what it would show reading the disk itself: every region with
// its flags, name and layers, the topology with what the drive said and what was measured, the
// drive's own report, and the warnings.
//
// Reading it back trusts nothing: the helper may be on another machine. Every field must have
// its type and a sane range (sectors within the disk, end not before start, at most
// kMaxRegions regions), or the whole object is refused with the field named.

#include "table/disklayout.h"

#include <QJsonObject>
#include <QString>

namespace partwise {

constexpr int kLayoutJsonFormat = 1;
constexpr int kMaxRegions = 4096;

QJsonObject layoutToJson(const DiskLayout &layout);
bool layoutFromJson(const QJsonObject &json, DiskLayout *layout, QString *error);

} // namespace partwise
