#pragma once

#include "moverequest.h"

#include <QString>

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
    // The chunks were cut to the shift: each one's destination covers the source of the chunk
    // before it, so each must be durable before the next is written. Such plans are copied in
    // windows (DataMover::copyInWindows) instead of with a record per chunk.
    bool cutToShift = false;

    // Identifies the plan, so a resume detects a journal written by a planner that cut the
    // range differently.
    std::uint64_t fingerprint() const;
    // Bytes in the chunks before `chunk`: what a move resumed there has done already.
    std::uint64_t bytesBefore(std::size_t chunk) const;
};

// A shift smaller than a chunk would make every chunk overlap its own source, and its data would
// have to be written twice (once into the journal). From kMinUnjournaledShift (or half a chunk)
// up, chunks are cut to the shift instead: no data goes through the journal, and each chunk
// costs a device sync before the next one may overwrite its source. Below that, a sync per
// shift-sized piece (a cache flush on a real disk, a filesystem commit for a loop device over
// a file) costs more than writing the data a second time, which the mover does while the
// previous chunk is being written.
constexpr std::uint64_t kMinUnjournaledFraction = 2;
constexpr std::uint64_t kMinUnjournaledShift = 512ULL << 10;

// A plan cut to the shift is copied in windows of about this many bytes of chunks (one window
// record each; with OverlapWay::JournalWindow, the window's sources in that record), or of the
// request's chunk size where that is smaller: the bytes it asks to copy between syncs.
constexpr std::uint64_t kWindowBytes = 32ULL << 20;

// The bytes of chunks one window of `plan` holds at most.
inline std::uint64_t windowBytesOf(const MoveRequest &request, const MovePlan &plan)
{
    const std::uint64_t window =
        request.chunkSize < kWindowBytes ? request.chunkSize : kWindowBytes;
    return plan.largestChunk > window ? plan.largestChunk : window;
}

// Whether a move by `shift` bytes in chunks of `chunkSize` is cut to the shift (see above).
bool cutsToShift(std::uint64_t shift, std::uint64_t chunkSize);
// How such a move keeps overlapping data safe, in a few words for a plan, or empty where no
// chunk overlaps its own source. Nothing is read: a cut move times the ways when it starts.
QString overlapPlanNote(std::uint64_t shift, std::uint64_t chunkSize);

// Extents closer than this are copied as one piece: copying a small gap is cheaper than the
// two syncs a separate chunk costs.
constexpr std::uint64_t kExtentMergeGap = 1ULL << 20;

// Whether chunks may be cut to the shift. A copy without crash safety (the benchmark's
// baseline) keeps whole chunks: it may overwrite a chunk's own source once the chunk is read.
enum class ShiftCut { WhereCheaper, Never };

MovePlan planMove(const MoveRequest &request, ShiftCut cut = ShiftCut::WhereCheaper);

} // namespace partwise::move
