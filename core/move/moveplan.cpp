#include "moveplan.h"

#include "base/multiple.h"
#include "checksum.h"
#include "movemessages.h"
#include "overlapchooser.h"

#include <algorithm>

namespace partwise::move {

namespace {

// The largest power of two (up to 4096) that both ends of the move are aligned to, so rounding
// extents to it keeps O_DIRECT possible on 512-byte and 4096-byte sector devices alike.
std::uint64_t rangeAlignment(const MoveRequest &request)
{
    std::uint64_t alignment = 4096;
    while (alignment > 1 &&
           (request.sourceOffset % alignment != 0 || request.destinationOffset % alignment != 0))
        alignment /= 2;
    return alignment;
}

std::vector<Extent> mergedExtents(const MoveRequest &request, std::uint64_t alignment)
{
    if (request.extents.empty())
        return {Extent{0, request.length}};

    std::vector<Extent> rounded;
    rounded.reserve(request.extents.size());
    for (const Extent &extent : request.extents) {
        const std::uint64_t start = roundDown(extent.offset, alignment);
        const std::uint64_t end =
            std::min(request.length, roundUp(extent.offset + extent.length, alignment));
        rounded.push_back({start, end - start});
    }
    std::sort(rounded.begin(), rounded.end(),
              [](const Extent &a, const Extent &b) { return a.offset < b.offset; });

    std::vector<Extent> merged;
    for (const Extent &extent : rounded) {
        if (!merged.empty()) {
            Extent &last = merged.back();
            const std::uint64_t lastEnd = last.offset + last.length;
            if (extent.offset <= lastEnd + kExtentMergeGap) {
                last.length = std::max(lastEnd, extent.offset + extent.length) - last.offset;
                continue;
            }
        }
        merged.push_back(extent);
    }
    return merged;
}

} // namespace

std::uint64_t MovePlan::fingerprint() const
{
    // Field by field: hashing the structs would hash their padding too.
    std::uint64_t hash = checksum64(&largestChunk, sizeof largestChunk);
    for (const MoveChunk &chunk : chunks) {
        const std::uint64_t fields[] = {chunk.sourceOffset, chunk.destinationOffset, chunk.length,
                                        chunk.needsJournal ? 1u : 0u};
        hash = checksum64(fields, sizeof fields, hash);
    }
    return hash;
}

std::uint64_t MovePlan::bytesBefore(std::size_t chunk) const
{
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < chunk && i < chunks.size(); ++i)
        bytes += chunks[i].length;
    return bytes;
}

bool cutsToShift(std::uint64_t shift, std::uint64_t chunkSize)
{
    return shift > 0 && shift < chunkSize &&
           (shift * kMinUnjournaledFraction >= chunkSize || shift >= kMinUnjournaledShift);
}

QString overlapPlanNote(std::uint64_t shift, std::uint64_t chunkSize)
{
    if (shift >= chunkSize)
        return {};
    if (!cutsToShift(shift, chunkSize))
        return QStringLiteral("each chunk's source journaled first");
    // Exact whatever the move's extents turn out to be: how many windows they fill is known
    // only when the move is planned from them.
    const std::uint64_t window = chunkSize < kWindowBytes ? chunkSize : kWindowBytes;
    return QStringLiteral("moved in steps of the shift, each flushed before the next; a move of "
                          "%1 or more windows of %2 also tries journaling each window first and "
                          "goes on the faster way")
        .arg(OverlapChooser::kMinWindowsToMeasure)
        .arg(formatSize(window));
}

MovePlan planMove(const MoveRequest &request, ShiftCut cut)
{
    MovePlan plan;
    if (request.length == 0 || request.sourceOffset == request.destinationOffset)
        return plan;

    const std::uint64_t alignment = rangeAlignment(request);
    const bool right = request.destinationOffset > request.sourceOffset;
    const std::uint64_t shift = right ? request.destinationOffset - request.sourceOffset
                                      : request.sourceOffset - request.destinationOffset;
    std::uint64_t piece = request.chunkSize;
    if (cut == ShiftCut::WhereCheaper && cutsToShift(shift, request.chunkSize)) {
        // Whole 4 KiB pieces where the shift allows: with the destination on 4 KiB, no write
        // then ends inside a physical sector of a 512e disk, which the disk would have to
        // read, modify and write back.
        const std::uint64_t unit = shift >= 4096 ? 4096 : alignment;
        piece = roundDown(shift, unit);
        plan.cutToShift = true;
    }

    for (const Extent &extent : mergedExtents(request, alignment)) {
        for (std::uint64_t done = 0; done < extent.length; done += piece) {
            MoveChunk chunk;
            chunk.length = std::min(piece, extent.length - done);
            chunk.sourceOffset = request.sourceOffset + extent.offset + done;
            chunk.destinationOffset = request.destinationOffset + extent.offset + done;
            chunk.needsJournal = shift < chunk.length;
            plan.chunks.push_back(chunk);
            plan.largestChunk = std::max(plan.largestChunk, chunk.length);
            plan.bytesToCopy += chunk.length;
        }
    }
    plan.backwards = right;
    if (right)
        std::reverse(plan.chunks.begin(), plan.chunks.end());
    return plan;
}

} // namespace partwise::move
