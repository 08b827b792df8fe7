#pragma once

// Deterministic test content for move tests: every 8-byte word encodes its own absolute
// position, so a shift, a duplicated chunk or a stale block shows up as a mismatch.

#include <QFile>
#include <QString>

#include "move/moverequest.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace movetest {

// A move of `length` bytes inside `image`.
inline partwise::move::MoveRequest
requestFor(const QString &image, std::uint64_t source, std::uint64_t destination,
           std::uint64_t length,
           std::uint64_t chunk = partwise::move::MoveRequest::kDefaultChunkSize)
{
    partwise::move::MoveRequest request;
    request.devicePath = image;
    request.sourceOffset = source;
    request.destinationOffset = destination;
    request.length = length;
    request.chunkSize = chunk;
    return request;
}

// The same move, forced to keep its windows safe one way (a move cut to the shift; see
// OverlapWay), so a test covers that way whatever the machine's timing would choose.
inline partwise::move::MoveRequest withWay(partwise::move::MoveRequest request,
                                           partwise::move::OverlapWay way)
{
    request.overlapWay = way;
    return request;
}

// The helper's and move-bench's spelling of a way (--way).
inline QString wayArgument(partwise::move::OverlapWay way)
{
    switch (way) {
    case partwise::move::OverlapWay::FlushPerShift:
        return QStringLiteral("flush");
    case partwise::move::OverlapWay::JournalWindow:
        return QStringLiteral("journal");
    case partwise::move::OverlapWay::Measure:
        break;
    }
    return QStringLiteral("measure");
}

inline std::uint64_t patternWord(std::uint64_t wordIndex, std::uint64_t seed)
{
    // splitmix64 of the position: neighbouring words differ in every byte.
    std::uint64_t z = wordIndex * 0x9E3779B97F4A7C15ULL + seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Pattern bytes for absolute positions [offset, offset + length). Whole words are made 4 KiB at
// a time and copied with one memcpy: a memcpy per word costs minutes under the sanitizers, whose
// unoptimised build intercepts every call.
inline void fillPattern(unsigned char *out, std::uint64_t length, std::uint64_t offset,
                        std::uint64_t seed)
{
    auto partialWord = [&](std::uint64_t i) {
        const std::uint64_t position = offset + i;
        const std::uint64_t word = patternWord(position / 8, seed);
        const std::uint64_t inWord = position % 8;
        const std::uint64_t take = std::min<std::uint64_t>(8 - inWord, length - i);
        std::memcpy(out + i, reinterpret_cast<const unsigned char *>(&word) + inWord, take);
        return take;
    };
    std::uint64_t i = 0;
    if (length > 0 && offset % 8 != 0)
        i += partialWord(0);
    std::uint64_t words[512];
    while (length - i >= 8) {
        const std::uint64_t count = std::min<std::uint64_t>(512, (length - i) / 8);
        const std::uint64_t first = (offset + i) / 8;
        for (std::uint64_t w = 0; w < count; ++w)
            words[w] = patternWord(first + w, seed);
        std::memcpy(out + i, words, count * 8);
        i += count * 8;
    }
    if (i < length)
        partialWord(i);
}

inline bool writePatternFile(const QString &path, std::uint64_t size, std::uint64_t seed)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    std::vector<unsigned char> block(4 << 20);
    for (std::uint64_t offset = 0; offset < size; offset += block.size()) {
        const std::uint64_t length = std::min<std::uint64_t>(block.size(), size - offset);
        fillPattern(block.data(), length, offset, seed);
        if (file.write(reinterpret_cast<const char *>(block.data()), static_cast<qint64>(length)) !=
            static_cast<qint64>(length))
            return false;
    }
    return file.flush();
}

// Compares [fileOffset, +length) of `path` with the pattern of [patternOffset, +length).
// Returns -1 when equal, else the first differing file offset.
inline std::int64_t firstMismatch(const QString &path, std::uint64_t fileOffset,
                                  std::uint64_t length, std::uint64_t patternOffset,
                                  std::uint64_t seed)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(static_cast<qint64>(fileOffset)))
        return static_cast<std::int64_t>(fileOffset);
    std::vector<unsigned char> actual(4 << 20);
    std::vector<unsigned char> expected(actual.size());
    for (std::uint64_t done = 0; done < length;) {
        const std::uint64_t chunk = std::min<std::uint64_t>(actual.size(), length - done);
        if (file.read(reinterpret_cast<char *>(actual.data()), static_cast<qint64>(chunk)) !=
            static_cast<qint64>(chunk))
            return static_cast<std::int64_t>(fileOffset + done);
        fillPattern(expected.data(), chunk, patternOffset + done, seed);
        if (std::memcmp(actual.data(), expected.data(), chunk) != 0) {
            std::uint64_t i = 0;
            while (actual[i] == expected[i])
                ++i;
            return static_cast<std::int64_t>(fileOffset + done + i);
        }
        done += chunk;
    }
    return -1;
}

// What a user would find wrong after `request` ran on a pattern file of `imageSize` bytes: the
// destination must hold the source's original bytes (only inside the extents, if any), and
// nothing outside the source and destination ranges may change. Empty when all is well.
inline QString moveProblem(const QString &image, const partwise::move::MoveRequest &request,
                           std::uint64_t imageSize, std::uint64_t seed)
{
    std::vector<partwise::move::Extent> parts = request.extents;
    if (parts.empty())
        parts.push_back({0, request.length});
    for (const partwise::move::Extent &part : parts) {
        const std::int64_t bad =
            firstMismatch(image, request.destinationOffset + part.offset, part.length,
                          request.sourceOffset + part.offset, seed);
        if (bad >= 0)
            return QStringLiteral("destination differs at byte %1").arg(bad);
    }
    const std::uint64_t low = std::min(request.sourceOffset, request.destinationOffset);
    const std::uint64_t high =
        std::max(request.sourceOffset, request.destinationOffset) + request.length;
    if (const std::int64_t bad = firstMismatch(image, 0, low, 0, seed); bad >= 0)
        return QStringLiteral("byte %1, before the moved ranges, changed").arg(bad);
    if (const std::int64_t bad = firstMismatch(image, high, imageSize - high, high, seed); bad >= 0)
        return QStringLiteral("byte %1, after the moved ranges, changed").arg(bad);
    return {};
}

} // namespace movetest
