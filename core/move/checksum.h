#pragma once

#include <cstddef>
#include <cstdint>

namespace partwise::move {

// The 64-bit non-cryptographic checksum that validates journal records and verifies moved
// data: XXH3_64bits_withSeed from libxxhash (with seed 0 it equals XXH3_64bits). It runs at
// memory speed, so checksumming every chunk costs little next to disk I/O. Every journal that
// stores these values (MoveJournal, and the realignment journal in core/ops) carries a format
// version, so a change of algorithm must bump them.
std::uint64_t checksum64(const void *data, std::size_t length, std::uint64_t seed = 0);

} // namespace partwise::move
