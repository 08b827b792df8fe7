// The guest suite's hot-plug case: the window open (offscreen) with the kernel's disk events
// (libudev's monitor, udevd running), drives plugged and unplugged through QEMU's monitor.
#pragma once

#include <QString>

namespace pwtest {

// Runs the case with QTest's checks; screenshots go to `screenshots`. Returns early on the
// first failed check (QTest::currentTestFailed() says so).
void hotPlugWithTheWindowOpen(const QString &screenshots);

} // namespace pwtest
