#include "align/copyplacement.h"

#include "base/multiple.h"

#include <QCoreApplication>

#include <algorithm>

namespace partwise {

namespace {

using Kind = PartitionInfo::Kind;

qint64 sectorsFor(qint64 bytes, qint64 sectorSize)
{
    return bytes / sectorSize + (bytes % sectorSize ? 1 : 0);
}

// Lays the partitions out one after another with these lengths (target sectors, whole grains;
// an extended partition's own entry is ignored: it spans its logicals). Returns the last
// sector used.
qint64 layOut(const CopyPlacementRequest &r, qint64 grain, const QList<qint64> &lengths,
              CopyPlacement *out)
{
    qint64 cursor = roundUp(std::max<qint64>(r.targetFirstUsable, 1), grain);
    if (r.reservedLeadingBytes > 0) {
        out->reservedStart = cursor;
        cursor += roundUp(sectorsFor(r.reservedLeadingBytes, r.targetSectorSize), grain);
        out->reservedEnd = cursor - 1;
    }
    out->placed.clear();
    int extended = -1;
    qint64 last = cursor - 1;
    for (int i = 0; i < r.partitions.size(); ++i) {
        const CopyPlacementPartition &p = r.partitions[i];
        CopyPlacedPartition placed;
        placed.number = p.number;
        placed.kind = p.kind;
        placed.sectorSize = r.targetSectorSize;
        cursor = roundUp(cursor, grain);
        if (p.kind == Kind::Extended) {
            // Its first EBR sits at its start; the first logical follows one grain later.
            placed.startSector = cursor;
            placed.endSector = cursor + grain - 1; // widened as logicals join
            extended = i;
        } else {
            if (p.kind == Kind::Logical)
                cursor += grain; // the gap that holds this logical's EBR
            placed.startSector = cursor;
            placed.endSector = cursor + lengths[i] - 1;
            cursor = placed.endSector + 1;
        }
        last = std::max(last, placed.endSector);
        out->placed << placed;
        if (p.kind == Kind::Logical && extended >= 0)
            out->placed[extended].endSector = placed.endSector;
    }
    return last;
}

} // namespace

QString copyGrowthName(CopyGrowth growth)
{
    switch (growth) {
    case CopyGrowth::KeepSizes:
        return QStringLiteral("keep");
    case CopyGrowth::GrowLast:
        return QStringLiteral("last");
    case CopyGrowth::Proportional:
        return QStringLiteral("proportional");
    }
    return QString();
}

bool parseCopyGrowth(const QString &text, CopyGrowth *growth)
{
    for (CopyGrowth g : {CopyGrowth::KeepSizes, CopyGrowth::GrowLast, CopyGrowth::Proportional})
        if (text == copyGrowthName(g)) {
            *growth = g;
            return true;
        }
    return false;
}

qint64 CopyPlacedPartition::lengthBytes() const
{
    return (endSector - startSector + 1) * sectorSize;
}

CopyPlacement placeCopy(const CopyPlacementRequest &r)
{
    CopyPlacement out;
    if (r.targetSectorSize <= 0 || r.grainBytes <= 0 || r.targetLastUsable <= r.targetFirstUsable) {
        out.error = QCoreApplication::translate("CopyPlacement", "The target has no usable room.");
        return out;
    }
    const qint64 ss = r.targetSectorSize;
    const qint64 grain = std::max<qint64>(1, r.grainBytes / ss);
    const qint64 limit = roundDown(r.targetLastUsable + 1, grain) - 1; // last end on the grain

    QList<qint64> lengths, floors;
    for (const CopyPlacementPartition &p : r.partitions) {
        const qint64 length = sectorsFor(p.lengthBytes, ss);
        lengths << (p.kind == Kind::Extended ? 0 : length);
        const bool shrinks =
            p.kind != Kind::Extended && p.minimumBytes > 0 && p.minimumBytes < p.lengthBytes;
        floors << (shrinks ? std::min(length, roundUp(sectorsFor(p.minimumBytes, ss), grain))
                           : lengths.last());
    }

    const qint64 last = layOut(r, grain, lengths, &out);
    if (last > limit) {
        // Smaller target: take the missing room from the slack above each floor, in proportion.
        const qint64 deficit = last - limit;
        qint64 slack = 0;
        for (int i = 0; i < lengths.size(); ++i)
            slack += lengths[i] - floors[i];
        if (slack < deficit) {
            out.error = QCoreApplication::translate(
                            "CopyPlacement",
                            "The partitions need %1 MiB more than the target has, and shrinking "
                            "what can shrink frees only %2 MiB.")
                            .arg(deficit * ss >> 20)
                            .arg(slack * ss >> 20);
            return out;
        }
        qint64 taken = 0;
        for (int i = 0; i < lengths.size() && taken < deficit; ++i) {
            const qint64 room = lengths[i] - floors[i];
            if (room <= 0)
                continue;
            const qint64 share = qint64((__int128)deficit * room / slack);
            const qint64 cut = std::min({room, roundUp(share, grain), deficit - taken});
            lengths[i] -= cut;
            taken += cut;
        }
        for (int i = 0; i < lengths.size() && taken < deficit; ++i) {
            const qint64 cut = std::min(lengths[i] - floors[i], deficit - taken);
            lengths[i] -= cut;
            taken += cut;
        }
    } else if (r.growth != CopyGrowth::KeepSizes && last < limit) {
        const qint64 spare = limit - last;
        QList<int> growable;
        for (int i = 0; i < r.partitions.size(); ++i)
            if (r.partitions[i].kind != Kind::Extended && r.partitions[i].canGrow)
                growable << i;
        if (r.growth == CopyGrowth::GrowLast) {
            int lastData = -1;
            for (int i = 0; i < r.partitions.size(); ++i)
                if (r.partitions[i].kind != Kind::Extended)
                    lastData = i;
            if (lastData >= 0 && r.partitions[lastData].canGrow)
                lengths[lastData] += spare;
        } else if (!growable.isEmpty()) {
            qint64 total = 0;
            for (int i : growable)
                total += lengths[i];
            qint64 given = 0;
            for (int k = 0; k < growable.size(); ++k) {
                const int i = growable[k];
                const qint64 share =
                    k + 1 == growable.size()
                        ? spare - given
                        : roundDown(qint64((__int128)spare * lengths[i] / total), grain);
                lengths[i] += share;
                given += share;
            }
        }
    }
    if (layOut(r, grain, lengths, &out) > limit) {
        out.error = QCoreApplication::translate("CopyPlacement",
                                                "The partitions do not fit on the target.");
        return out;
    }
    out.ok = true;
    return out;
}

void freshTableUsableRange(const QString &tableType, qint64 totalSectors, qint64 sectorSize,
                           qint64 *firstUsable, qint64 *lastUsable)
{
    if (tableType == QLatin1String("gpt")) {
        const qint64 entrySectors = sectorsFor(128 * 128, sectorSize);
        *firstUsable = 2 + entrySectors;
        *lastUsable = totalSectors - 2 - entrySectors;
    } else {
        // libparted zeroes 9 KiB at both ends of a disk it writes a fresh table to (against a
        // stale label there), so no partition's data may lie in them.
        const qint64 clobbered = sectorsFor(9 * 1024, sectorSize) + 1;
        *firstUsable = clobbered;
        *lastUsable = std::min<qint64>(totalSectors - 1 - clobbered, 0xFFFFFFFFLL);
    }
}

} // namespace partwise
