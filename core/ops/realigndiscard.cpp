#include "ops/realigndiscard.h"

#include "base/humansize.h"
#include "device/exclusiveclaim.h"
#include "table/diskreader.h"

#include <algorithm>
#include <cstring>

namespace partwise {

namespace {

// A discard of many GiB can take seconds on a drive: pieces of 1 GiB keep Cancel answered.
constexpr quint64 kDiscardPiece = quint64(1) << 30;

quint64 alignOf(qint64 sectorSize, qint64 granularity)
{
    return std::max<quint64>(quint64(sectorSize), quint64(std::max<qint64>(granularity, 0)));
}

// The table after `moves`: every partition of `before` at its new place.
QList<PartitionInfo> heldAfter(const DiskLayout &before, const QList<PartitionMove> &moves)
{
    QList<PartitionInfo> held = before.partitions();
    for (PartitionInfo &p : held)
        for (const PartitionMove &m : moves)
            if (m.number == p.number) {
                p.startSector = m.newStart;
                p.endSector = m.newEnd;
            }
    return held;
}

} // namespace

std::vector<move::Extent> leftBehindStretches(const QList<PartitionMove> &oldPlaces,
                                              const QList<PartitionInfo> &held, qint64 sectorSize,
                                              quint64 diskBytes, quint64 align)
{
    const quint64 ss = quint64(sectorSize);
    std::vector<move::Extent> taken;
    for (const PartitionInfo &p : held)
        if (!p.isFree())
            taken.push_back({quint64(p.startSector) * ss, quint64(p.lengthSectors()) * ss});
    std::vector<move::Extent> left;
    for (const PartitionMove &m : oldPlaces) {
        if (m.tableOnly() || m.kind == PartitionInfo::Kind::Logical)
            continue;
        // Everything but this old place counts as written, so only its unheld sectors remain.
        const quint64 from = std::min(quint64(m.oldStart) * ss, diskBytes);
        const quint64 to = std::min(quint64(m.oldEnd + 1) * ss, diskBytes);
        std::vector<move::Extent> others = taken;
        others.push_back({0, from});
        others.push_back({to, diskBytes - to});
        for (const move::Extent &e : unwrittenStretches(diskBytes, others, 0, 0, align, align))
            left.push_back(e);
    }
    std::sort(left.begin(), left.end(),
              [](const move::Extent &a, const move::Extent &b) { return a.offset < b.offset; });
    // Two moves' old places may overlap (a partition moved into its neighbour's old place).
    std::vector<move::Extent> merged;
    for (const move::Extent &e : left) {
        if (!merged.empty() && e.offset <= merged.back().offset + merged.back().length) {
            const quint64 end =
                std::max(merged.back().offset + merged.back().length, e.offset + e.length);
            merged.back().length = end - merged.back().offset;
        } else {
            merged.push_back(e);
        }
    }
    return merged;
}

RealignDiscard planRealignDiscard(const QString &target, const DiskLayout &before,
                                  const QList<PartitionMove> &moves, bool wanted)
{
    RealignDiscard plan;
    if (!wanted) {
        plan.why = QStringLiteral("--no-discard");
        return plan;
    }
    const DiscardSupport support = discardSupportOf(target);
    plan.way = support.way;
    plan.granularity = support.granularity;
    plan.why = support.why;
    if (plan.way == DiscardWay::None)
        return plan;
    const qint64 ss = before.device.topology.logicalSectorSize;
    for (const move::Extent &e :
         leftBehindStretches(moves, heldAfter(before, moves), ss, quint64(before.device.sizeBytes),
                             alignOf(ss, plan.granularity)))
        plan.bytes += e.length;
    return plan;
}

QString realignDiscardText(const RealignDiscard &discard)
{
    switch (discard.way) {
    case DiscardWay::PunchHoles:
        return QStringLiteral("the %1 the moves leave behind become holes in the image afterwards "
                              "(--no-discard keeps them)")
            .arg(humanSize(qint64(discard.bytes)));
    case DiscardWay::Trim:
        return QStringLiteral("the %1 the moves leave behind are discarded afterwards (TRIM; "
                              "--no-discard keeps them)")
            .arg(humanSize(qint64(discard.bytes)));
    case DiscardWay::None:
        break;
    }
    return QStringLiteral("none (%1)").arg(discard.why);
}

namespace {

DiscardOutcome discardStretches(const QString &target, const std::vector<move::Extent> &stretches,
                                const std::atomic<bool> *cancel)
{
    DiscardOutcome outcome;
    int error = 0;
    const auto io = move::openFileBlockIo(target, move::BlockIo::Access::ReadWrite, &error);
    if (!io) {
        outcome.error = QString::fromLocal8Bit(std::strerror(error));
        return outcome;
    }
    for (const move::Extent &stretch : stretches)
        for (quint64 done = 0; done < stretch.length;) {
            if (cancel && cancel->load()) {
                outcome.cancelled = true;
                return outcome;
            }
            const quint64 piece = std::min(kDiscardPiece, stretch.length - done);
            if (const int e = io->discard(stretch.offset + done, piece)) {
                outcome.error = QString::fromLocal8Bit(std::strerror(e));
                return outcome;
            }
            done += piece;
            outcome.bytes += piece;
        }
    if (const int e = io->sync())
        outcome.error = QString::fromLocal8Bit(std::strerror(e));
    return outcome;
}

} // namespace

QString discardLeftBehind(const WriteJournal &journal, const std::atomic<bool> *cancel)
{
    if (journal.discard == DiscardWay::None)
        return {};
    DiskReadOptions ro;
    ro.forcedSectorSize = journal.sectorSize;
    const DiskReadResult now = readDisk(journal.target, ro);
    QString why;
    ExclusiveClaim claim;
    if (!now.ok || !claim.take(journal.target, &why))
        return QStringLiteral("What the moves left behind was not discarded: %1")
            .arg(now.ok ? why : now.error);
    const qint64 granularity =
        journal.discard == DiscardWay::Trim ? discardSupportOf(journal.target).granularity : 0;
    const DiscardOutcome outcome = discardStretches(
        journal.target,
        leftBehindStretches(journal.moves, now.layout.partitions(), journal.sectorSize,
                            quint64(now.layout.device.sizeBytes),
                            alignOf(journal.sectorSize, granularity)),
        cancel);
    const QString done =
        QStringLiteral("Discarded the %1 the moves left behind (%2)")
            .arg(humanSize(qint64(outcome.bytes)), journal.discard == DiscardWay::Trim
                                                       ? QStringLiteral("TRIM")
                                                       : QStringLiteral("holes in the image"));
    if (outcome.cancelled)
        return done + QStringLiteral("; cancelled before the rest");
    if (!outcome.error.isEmpty())
        return done + QStringLiteral("; then a discard failed: %1").arg(outcome.error);
    return done;
}

} // namespace partwise
