#include "align/alignmentverdict.h"

#include <QLocale>

namespace {

qint64 positiveModulo(qint64 value, qint64 modulus)
{
    const qint64 r = value % modulus;
    return r < 0 ? r + modulus : r;
}

QString sizeWord(qint64 bytes)
{
    if (bytes % (1 << 20) == 0)
        return QStringLiteral("%1 MiB").arg(bytes >> 20);
    if (bytes % 1024 == 0)
        return QStringLiteral("%1 KiB").arg(bytes >> 10);
    return QStringLiteral("%1-byte").arg(bytes);
}

} // namespace

QString alignmentStatusName(AlignmentStatus status)
{
    switch (status) {
    case AlignmentStatus::Aligned:
        return QStringLiteral("aligned");
    case AlignmentStatus::SectorAligned:
        return QStringLiteral("sector-aligned");
    case AlignmentStatus::Misaligned:
        return QStringLiteral("misaligned");
    case AlignmentStatus::Container:
        return QStringLiteral("container");
    case AlignmentStatus::NotApplicable:
        break;
    }
    return QStringLiteral("free");
}

AlignmentVerdict judgeStart(qint64 startSector, const AlignmentGeometry &g)
{
    AlignmentVerdict v;
    v.startByte = startSector * g.logicalSectorSize - g.alignmentOffset;
    v.misalignmentBytes = positiveModulo(v.startByte, g.physicalAssumed);
    v.offsetInPhysical = v.misalignmentBytes;
    v.offsetIn4KiB = positiveModulo(v.startByte, 4096);
    v.offsetInGrain = positiveModulo(v.startByte, g.grainBytes);
    if (v.misalignmentBytes != 0)
        v.status = AlignmentStatus::Misaligned;
    else if (v.offsetInGrain != 0)
        v.status = AlignmentStatus::SectorAligned;
    else
        v.status = AlignmentStatus::Aligned;
    return v;
}

AlignmentVerdict judgePartition(const PartitionInfo &partition, const AlignmentGeometry &g)
{
    AlignmentVerdict v = judgeStart(partition.startSector, g);
    if (partition.isContainer())
        v.status = AlignmentStatus::Container;
    else if (partition.isFree())
        v.status = AlignmentStatus::NotApplicable;
    return v;
}

QString AlignmentVerdict::explanation(const AlignmentGeometry &g) const
{
    const QLocale c(QLocale::English, QLocale::UnitedStates);
    switch (status) {
    case AlignmentStatus::Aligned:
        return QStringLiteral("starts on a %1 boundary").arg(sizeWord(g.grainBytes));
    case AlignmentStatus::SectorAligned:
        return QStringLiteral("starts on a %1 physical sector but %2 bytes past a %3 boundary")
            .arg(sizeWord(g.physicalAssumed), c.toString(offsetInGrain), sizeWord(g.grainBytes));
    case AlignmentStatus::Misaligned:
        return QStringLiteral("starts %1 bytes past a %2 boundary: every write straddles two "
                              "physical sectors")
            .arg(c.toString(misalignmentBytes), sizeWord(g.physicalAssumed));
    case AlignmentStatus::Container:
        return QStringLiteral("extended partition: a container for logical partitions, exempt");
    case AlignmentStatus::NotApplicable:
        break;
    }
    return QString();
}
