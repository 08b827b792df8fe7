// Whether this run takes a suite's reduced parameter set: .ci/sanitize sets
// PARTWISE_TEST_REDUCED=1 for its sanitizer build, where every trial costs several times what it
// does in the main build that ran the full set just before. A reduced set keeps every kind of
// trial (and its random instants or positions), only fewer of each; each suite says which.
// Header-only: suites that do not link partwise-test-support use it too.
#pragma once

#include <QtGlobal>

namespace pwtest {

inline bool reducedRun()
{
    return qEnvironmentVariableIntValue("PARTWISE_TEST_REDUCED") == 1;
}

} // namespace pwtest
