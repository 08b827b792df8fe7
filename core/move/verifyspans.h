#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace partwise::move {

struct MovePlan;

// One read of the verification pass: `count` chunks whose destinations follow each other on the
// device, in ascending order, read back at once.
struct VerifySpan
{
    std::size_t first = 0; // index into VerifyOrder::chunks
    std::size_t count = 0;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

// The order in which a finished move is read back: destinations in ascending device order
// (whatever direction the copy ran), merged into reads of up to `spanLimit` bytes, so that
// verifying costs about one sequential read of the moved data. A chunk longer than `spanLimit`
// is a read of its own: callers size their buffers for max(spanLimit, plan.largestChunk).
struct VerifyOrder
{
    std::vector<std::size_t> chunks; // plan chunk indices, ascending by destination
    std::vector<VerifySpan> spans;
};

VerifyOrder verifyOrder(const MovePlan &plan, std::uint64_t spanLimit);

} // namespace partwise::move
