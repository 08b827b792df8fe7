#pragma once

// `partwise-cli power-off`: a USB drive flushed and let go of, ready to be pulled out
// (device/drivepoweroff.h).

#include <QString>
#include <QTextStream>

namespace partwise {

// Exit 0 powered off, 1 when the kernel refused a step, 2 for a target that is no USB drive, is
// in use, or is being written.
int runPowerOffCommand(const QString &target, bool json, QTextStream &out, QTextStream &err);

} // namespace partwise
