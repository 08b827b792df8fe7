#pragma once

#include <cstddef>
#include <cstdint>

namespace partwise::move {

// A fast 64-bit non-cryptographic checksum used to validate journal records and to verify
// moved data. It follows the structure of xxHash64 (four independent multiply-rotate lanes),
// which runs at memory speed, so checksumming every chunk costs little next to disk I/O.
std::uint64_t checksum64(const void *data, std::size_t length, std::uint64_t seed = 0);

} // namespace partwise::move
