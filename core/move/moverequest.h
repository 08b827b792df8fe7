#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace partwise::move {

// A byte range inside the moved range, relative to its start.
struct Extent
{
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

// How a move cut to the shift (MovePlan::cutToShift: a shift smaller than a chunk, every chunk's
// destination covering the source of the one before) keeps each window of chunks safe. Until a
// write is flushed it may reach the disk in any order, so each overwritten byte must be durable
// somewhere else first: either the device is flushed between chunks (no byte written twice, one
// flush per shift), or the window's sources are written into the journal first (every byte
// written twice, two flushes per window). Either way is safe at every window; the mover times
// both on the move's own first windows and goes on with the cheaper (overlapchooser.h).
enum class OverlapWay {
    Measure,       // chosen by timing the move's own windows
    FlushPerShift, // every window: a device flush between chunks
    JournalWindow, // every window: its sources journaled first, one device flush at its end
};

// What to move: `length` bytes at `sourceOffset` of `devicePath` go to `destinationOffset` of
// the same device or image file. Source and destination may overlap in either direction.
struct MoveRequest
{
    // Large chunks amortise the two syncs per chunk (milliseconds each on real disks).
    static constexpr std::uint64_t kDefaultChunkSize = 32ULL << 20;

    QString devicePath;
    std::uint64_t sourceOffset = 0;
    std::uint64_t destinationOffset = 0;
    std::uint64_t length = 0;
    // "Copy only used blocks": when non-empty, only these parts of the range are copied and
    // bytes outside them may hold anything afterwards. Empty means the whole range.
    std::vector<Extent> extents;
    // Upper bound of one copy step; a multiple of 4096. Larger chunks mean fewer syncs.
    std::uint64_t chunkSize = kDefaultChunkSize;
    // Re-read the destination after the copy and compare checksums taken while copying.
    bool verify = true;
    // Recorded in the journal, so a resumed move goes on the way it was asked to.
    OverlapWay overlapWay = OverlapWay::Measure;

    // Empty when the request is well formed, otherwise why not (deviceSize 0 skips that check).
    QString validate(std::uint64_t deviceSize = 0) const;
};

} // namespace partwise::move
