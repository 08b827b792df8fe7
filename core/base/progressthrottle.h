#pragma once

// Long jobs call their progress callback after every write or chunk, thousands of times a
// second; a terminal, a helper's pipe or a progress bar wants a few a second. A throttle says
// when a report is due: the interval has passed since the last one (or since it was made), or
// the report is the last one, which always goes out. Used from one thread at a time.

#include <QElapsedTimer>

namespace partwise {

class ProgressThrottle
{
public:
    explicit ProgressThrottle(qint64 intervalMs);

    // True when this report should go out; the interval then starts again.
    bool due(bool last);

private:
    QElapsedTimer m_clock;
    qint64 m_intervalMs;
};

} // namespace partwise
