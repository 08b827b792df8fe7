#pragma once

#include <future>

namespace partwise::move {

// Waits, when it goes out of scope, for the read-ahead `pending` still holds: whatever way a
// copy returns, no read may still be filling a buffer that is about to be freed.
template <typename Result> class ReadAheadGuard
{
public:
    explicit ReadAheadGuard(std::future<Result> &pending) : m_pending(pending) {}
    ~ReadAheadGuard()
    {
        if (m_pending.valid())
            m_pending.wait();
    }
    ReadAheadGuard(const ReadAheadGuard &) = delete;
    ReadAheadGuard &operator=(const ReadAheadGuard &) = delete;

private:
    std::future<Result> &m_pending;
};

} // namespace partwise::move
