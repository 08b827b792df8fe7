#include "ops/copydiscard.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace partwise {

namespace {

// A discard of many GiB can take seconds on a drive: pieces of 1 GiB keep Cancel answered.
constexpr quint64 kDiscardPiece = quint64(1) << 30;

quint64 roundUp(quint64 value, quint64 align)
{
    return (value + align - 1) / align * align;
}

bool writesData(CopyData data)
{
    return data == CopyData::UsedBlocks || data == CopyData::Whole || data == CopyData::Shrunk;
}

} // namespace

std::vector<move::Extent> unwrittenStretches(quint64 targetSize, std::vector<move::Extent> written,
                                             quint64 keepHead, quint64 keepTail, quint64 align,
                                             quint64 minimum)
{
    align = std::max<quint64>(align, 1);
    written.push_back({0, std::min(keepHead, targetSize)});
    const quint64 tail = std::min(keepTail, targetSize);
    written.push_back({targetSize - tail, tail});
    std::sort(written.begin(), written.end(),
              [](const move::Extent &a, const move::Extent &b) { return a.offset < b.offset; });
    std::vector<move::Extent> free;
    quint64 at = 0; // everything before `at` is written or kept
    auto addUpTo = [&](quint64 end) {
        const quint64 start = roundUp(at, align);
        const quint64 stop = end / align * align;
        if (stop > start && stop - start >= minimum)
            free.push_back({start, stop - start});
    };
    for (const move::Extent &e : written) {
        if (e.offset > at)
            addUpTo(std::min<quint64>(e.offset, targetSize));
        at = std::max<quint64>(at, std::min<quint64>(e.offset + e.length, targetSize));
    }
    if (at < targetSize)
        addUpTo(targetSize);
    return free;
}

DiscardOutcome discardUnwritten(const CopyPlan &plan, move::BlockIo &target,
                                const CopyExtentsOf &extentsOf, quint64 keepHead, quint64 keepTail,
                                const std::atomic<bool> *cancel)
{
    DiscardOutcome outcome;
    if (plan.discard == CopyDiscard::None)
        return outcome;
    const quint64 tss = quint64(plan.targetSectorSize);
    std::vector<move::Extent> written;
    for (int i = 0; i < plan.partitions.size(); ++i) {
        const CopyPartitionPlan &p = plan.partitions.at(i);
        if (!writesData(p.data))
            continue;
        const quint64 base = quint64(p.newStart) * tss;
        for (const move::Extent &e : extentsOf(i))
            written.push_back({base + e.offset, e.length});
    }
    const quint64 align =
        std::max<quint64>(tss, quint64(std::max<qint64>(plan.discardGranularity, 0)));
    for (const move::Extent &stretch :
         unwrittenStretches(target.size(), written, keepHead, keepTail, align)) {
        for (quint64 done = 0; done < stretch.length;) {
            if (cancel && cancel->load()) {
                outcome.cancelled = true;
                return outcome;
            }
            const quint64 piece = std::min(kDiscardPiece, stretch.length - done);
            if (const int e = target.discard(stretch.offset + done, piece)) {
                outcome.error = QString::fromLocal8Bit(std::strerror(e));
                return outcome;
            }
            done += piece;
            outcome.bytes += piece;
        }
    }
    return outcome;
}

} // namespace partwise
