#include "Checksum.h"

#include <cstring>

namespace partwise::move {

namespace {

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

inline std::uint64_t rotateLeft(std::uint64_t value, int bits)
{
    return (value << bits) | (value >> (64 - bits));
}

inline std::uint64_t load64(const unsigned char *p)
{
    std::uint64_t value;
    std::memcpy(&value, p, sizeof value); // unaligned-safe; the compiler emits one load
    return value;
}

inline std::uint32_t load32(const unsigned char *p)
{
    std::uint32_t value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

inline std::uint64_t mixLane(std::uint64_t lane, std::uint64_t input)
{
    lane += input * kPrime2;
    lane = rotateLeft(lane, 31);
    return lane * kPrime1;
}

inline std::uint64_t foldLane(std::uint64_t hash, std::uint64_t lane)
{
    hash ^= mixLane(0, lane);
    return hash * kPrime1 + kPrime4;
}

} // namespace

std::uint64_t checksum64(const void *data, std::size_t length, std::uint64_t seed)
{
    const auto *p = static_cast<const unsigned char *>(data);
    const unsigned char *const end = p + length;
    std::uint64_t hash;

    if (length >= 32) {
        std::uint64_t lane1 = seed + kPrime1 + kPrime2;
        std::uint64_t lane2 = seed + kPrime2;
        std::uint64_t lane3 = seed;
        std::uint64_t lane4 = seed - kPrime1;
        const unsigned char *const lastStripe = end - 32;
        do {
            lane1 = mixLane(lane1, load64(p));
            lane2 = mixLane(lane2, load64(p + 8));
            lane3 = mixLane(lane3, load64(p + 16));
            lane4 = mixLane(lane4, load64(p + 24));
            p += 32;
        } while (p <= lastStripe);
        hash = rotateLeft(lane1, 1) + rotateLeft(lane2, 7) + rotateLeft(lane3, 12) +
               rotateLeft(lane4, 18);
        hash = foldLane(hash, lane1);
        hash = foldLane(hash, lane2);
        hash = foldLane(hash, lane3);
        hash = foldLane(hash, lane4);
    } else {
        hash = seed + kPrime5;
    }
    hash += static_cast<std::uint64_t>(length);

    for (; p + 8 <= end; p += 8) {
        hash ^= mixLane(0, load64(p));
        hash = rotateLeft(hash, 27) * kPrime1 + kPrime4;
    }
    if (p + 4 <= end) {
        hash ^= static_cast<std::uint64_t>(load32(p)) * kPrime1;
        hash = rotateLeft(hash, 23) * kPrime2 + kPrime3;
        p += 4;
    }
    for (; p < end; ++p) {
        hash ^= (*p) * kPrime5;
        hash = rotateLeft(hash, 11) * kPrime1;
    }

    hash ^= hash >> 33;
    hash *= kPrime2;
    hash ^= hash >> 29;
    hash *= kPrime3;
    hash ^= hash >> 32;
    return hash;
}

} // namespace partwise::move
