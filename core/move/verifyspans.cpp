#include "verifyspans.h"

#include "moveplan.h"

namespace partwise::move {

VerifyOrder verifyOrder(const MovePlan &plan, std::uint64_t spanLimit)
{
    VerifyOrder order;
    const std::size_t count = plan.chunks.size();
    order.chunks.resize(count);
    // A backwards plan (moving right) lists its chunks from the end of the range.
    for (std::size_t i = 0; i < count; ++i)
        order.chunks[i] = plan.backwards ? count - 1 - i : i;
    for (std::size_t k = 0; k < count; ++k) {
        const MoveChunk &chunk = plan.chunks[order.chunks[k]];
        if (!order.spans.empty()) {
            VerifySpan &last = order.spans.back();
            if (last.offset + last.length == chunk.destinationOffset &&
                last.length + chunk.length <= spanLimit) {
                last.length += chunk.length;
                ++last.count;
                continue;
            }
        }
        order.spans.push_back({k, 1, chunk.destinationOffset, chunk.length});
    }
    return order;
}

} // namespace partwise::move
