#include "checksum.h"

#include <xxhash.h>

namespace partwise::move {

std::uint64_t checksum64(const void *data, std::size_t length, std::uint64_t seed)
{
    return XXH3_64bits_withSeed(data, length, seed);
}

} // namespace partwise::move
