#pragma once

// `partwise-cli watch`: the disks as they come and go (device/diskmonitor.h), one line per
// event, until the time bound passes or its input ends. What the window's disk list follows,
// printed, so scripts and tests see the same events.

#include <QString>
#include <QTextStream>

namespace partwise {

struct WatchCommandOptions
{
    bool json = false;
    int seconds = 0; // 0: until the input ends
    QString source;  // "udev", "kernel", or empty: udev's where udevd runs
};

// The longest --seconds takes: a day.
constexpr int kWatchMaxSeconds = 86400;

int runWatchCommand(const WatchCommandOptions &options, QTextStream &out, QTextStream &err);

} // namespace partwise
