#include "backgroundverifier.h"

#include "checksum.h"
#include "moveplan.h"

#include <algorithm>

namespace partwise::move {

namespace {

// Reads are gathered until this much is written, so that a copy cut into 1 MiB shifts is read
// back in a few large reads rather than a thousand small ones.
constexpr std::uint64_t kBatchBytes = 8ULL << 20;
// The most one read-back span holds (a chunk larger than this is a span of its own).
constexpr std::uint64_t kSpanBytes = 32ULL << 20;

} // namespace

BackgroundVerifier::BackgroundVerifier(BlockIo &device, const MovePlan &plan,
                                       const std::atomic<bool> *cancel)
    : m_device(device), m_plan(plan), m_cancel(cancel),
      m_buffer(AlignedBuffer::forReading(std::max(kSpanBytes, plan.largestChunk)))
{
    if (!m_buffer.isNull())
        m_thread = std::thread(&BackgroundVerifier::work, this);
}

BackgroundVerifier::~BackgroundVerifier()
{
    finish();
}

void BackgroundVerifier::written(std::size_t index, std::uint64_t checksum)
{
    if (!running())
        return;
    bool wake = false;
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back({index, checksum});
        m_queuedBytes += m_plan.chunks[index].length;
        wake = m_queuedBytes >= kBatchBytes;
    }
    if (wake)
        m_wake.notify_one();
}

VerifyFailure BackgroundVerifier::finish()
{
    if (m_thread.joinable()) {
        {
            const std::lock_guard lock(m_mutex);
            m_finishing = true;
        }
        m_wake.notify_one();
        m_thread.join();
    }
    const std::lock_guard lock(m_mutex);
    return m_failure;
}

void BackgroundVerifier::work()
{
    std::vector<Pending> batch;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(
                lock, [this] { return m_finishing || m_queuedBytes >= kBatchBytes || m_failure; });
            if (m_failure || (m_queue.empty() && m_finishing))
                return;
            batch.swap(m_queue);
            m_queuedBytes = 0;
        }
        const VerifyFailure failure = readBack(batch);
        batch.clear();
        if (failure) {
            const std::lock_guard lock(m_mutex);
            m_failure = failure;
            return;
        }
    }
}

VerifyFailure BackgroundVerifier::readBack(std::vector<Pending> &batch)
{
    // Ascending destinations, merged where they touch: a backwards copy hands them over from
    // the top down.
    std::sort(batch.begin(), batch.end(), [this](const Pending &a, const Pending &b) {
        return m_plan.chunks[a.index].destinationOffset < m_plan.chunks[b.index].destinationOffset;
    });
    for (std::size_t first = 0; first < batch.size();) {
        const MoveChunk &head = m_plan.chunks[batch[first].index];
        std::uint64_t length = head.length;
        std::size_t end = first + 1;
        while (end < batch.size()) {
            const MoveChunk &next = m_plan.chunks[batch[end].index];
            if (next.destinationOffset != head.destinationOffset + length ||
                length + next.length > m_buffer.size())
                break;
            length += next.length;
            ++end;
        }
        if (m_cancel && m_cancel->load(std::memory_order_relaxed))
            return {VerifyFailure::Kind::Cancelled, 0, head.destinationOffset, length};
        if (const int code =
                readInPieces(m_device, m_buffer.data(), length, head.destinationOffset))
            return {VerifyFailure::Kind::Unreadable, code, head.destinationOffset, length};
        const unsigned char *data = m_buffer.data();
        for (std::size_t k = first; k < end; ++k) {
            const MoveChunk &chunk = m_plan.chunks[batch[k].index];
            if (checksum64(data, chunk.length) != batch[k].checksum)
                return {VerifyFailure::Kind::Mismatch, 0, chunk.destinationOffset, chunk.length};
            data += chunk.length;
        }
        m_covered += end - first;
        m_coveredBytes += length;
        first = end;
    }
    return {};
}

} // namespace partwise::move
