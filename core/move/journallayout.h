#pragma once

#include "base/multiple.h"

#include <cstdint>

namespace partwise::move {

// The move journal is laid out in whole 4096-byte blocks (O_DIRECT needs them), and any byte
// not written with a meaning is zero, so damage to padding can be told apart from a torn write.
constexpr std::uint64_t kJournalBlock = 4096;

inline std::uint64_t roundUpToBlock(std::uint64_t value)
{
    return roundUp(value, kJournalBlock);
}

inline bool allZero(const unsigned char *data, std::uint64_t length)
{
    for (std::uint64_t i = 0; i < length; ++i)
        if (data[i] != 0)
            return false;
    return true;
}

} // namespace partwise::move
