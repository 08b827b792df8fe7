#pragma once

// The recovery point newDiskSurvivingAssertions() sets for the exception handler of
// PartedSession (see partedread.h): per thread, since libparted is used from worker threads.

#include <QString>

#include <csetjmp>

namespace partwise {

void setPartedRecovery(sigjmp_buf *recovery);
// Called by the exception handler on a bug exception: jumps to the recovery point if one is
// set (and then never returns); returns if none is.
void recoverFromPartedAssertion(const char *message);
QString partedAssertionText();

} // namespace partwise
