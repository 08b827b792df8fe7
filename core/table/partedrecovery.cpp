#include "table/partedrecovery.h"

#include <cstdio>

namespace partwise {

namespace {

thread_local sigjmp_buf *t_recovery = nullptr;
thread_local char t_message[512];

} // namespace

void setPartedRecovery(sigjmp_buf *recovery)
{
    t_recovery = recovery;
}

void recoverFromPartedAssertion(const char *message)
{
    if (!t_recovery)
        return;
    std::snprintf(t_message, sizeof t_message, "%s", message ? message : "");
    siglongjmp(*t_recovery, 1);
}

QString partedAssertionText()
{
    return QString::fromLocal8Bit(t_message).trimmed();
}

} // namespace partwise
