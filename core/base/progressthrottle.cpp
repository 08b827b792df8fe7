#include "base/progressthrottle.h"

namespace partwise {

ProgressThrottle::ProgressThrottle(qint64 intervalMs) : m_intervalMs(intervalMs)
{
    m_clock.start();
}

bool ProgressThrottle::due(bool last)
{
    if (!last && m_clock.elapsed() < m_intervalMs)
        return false;
    m_clock.restart();
    return true;
}

} // namespace partwise
