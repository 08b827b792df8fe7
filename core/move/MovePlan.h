#pragma once

#include "MoveRequest.h"

#include <cstdint>
#include <vector>

namespace partwise::move {

// One copy step: read the source, write the destination, then record it as done.
struct MoveChunk
{
    std::uint64_t sourceOffset = 0;      // absolute, in the device
    std::uint64_t destinationOffset = 0; // absolute, in the device
    std::uint64_t length = 0;
    // The destination overlaps the chunk's own source, so writing it destroys data that has
    // not been copied yet: the source must be saved in the journal first.
    bool needsJournal = false;
};

// The chunks of a move in the order they must run. Moving right (destination above source)
// runs from the end backwards and moving left runs forwards, so a chunk never overwrites the
// source of a chunk that is still to come.
struct MovePlan
{
    std::vector<MoveChunk> chunks;
    std::uint64_t largestChunk = 0;
    std::uint64_t bytesToCopy = 0;
    bool backwards = false;

    // Identifies the plan, so a resume detects a journal written by a planner that cut the
    // range differently.
    std::uint64_t fingerprint() const;
};

// A shift smaller than a chunk would make every chunk overlap its own source. From
// kMinUnjournaledShift (or half a chunk) up, chunks are cut to the shift instead, so no data
// goes through the journal: each chunk then costs a device sync and a small journal record,
// instead of writing every byte twice. Below that, cutting would mean so many small chunks that
// their syncs (milliseconds each on real disks, and a filesystem commit for a loop device)
// outweigh writing the data once more into the journal, which the mover does while the previous
// chunk is being written.
constexpr std::uint64_t kMinUnjournaledFraction = 2;
constexpr std::uint64_t kMinUnjournaledShift = 8ULL << 20;

// Extents closer than this are copied as one piece: copying a small gap is cheaper than the
// two syncs a separate chunk costs.
constexpr std::uint64_t kExtentMergeGap = 1ULL << 20;

MovePlan planMove(const MoveRequest &request);

} // namespace partwise::move
