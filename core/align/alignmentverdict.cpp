#include "align/alignmentverdict.h"

#include "base/humansize.h"

#include <QCoreApplication>

namespace partwise {

namespace {

qint64 positiveModulo(qint64 value, qint64 modulus)
{
    const qint64 r = value % modulus;
    return r < 0 ? r + modulus : r;
}

// A size used as an adjective: "a 4 KiB boundary", "a 512-byte boundary".
QString sizeWord(qint64 bytes)
{
    if (bytes % (1 << 20) == 0)
        //: A size used as an adjective before a noun, as in "a 1 MiB boundary".
        return QCoreApplication::translate("AlignmentVerdict", "%1 MiB").arg(bytes >> 20);
    if (bytes % 1024 == 0)
        //: A size used as an adjective before a noun, as in "a 4 KiB boundary".
        return QCoreApplication::translate("AlignmentVerdict", "%1 KiB").arg(bytes >> 10);
    //: A size used as an adjective before a noun, as in "a 512-byte boundary".
    return QCoreApplication::translate("AlignmentVerdict", "%1-byte").arg(bytes);
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
    return judgeByte(startSector * g.logicalSectorSize, g);
}

AlignmentVerdict judgeByte(qint64 absoluteByte, const AlignmentGeometry &g)
{
    AlignmentVerdict v;
    v.startByte = absoluteByte - g.alignmentOffset;
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

// Translatable for the window; partwise-cli loads no catalogue, so its text stays English.
// The explanation completes a sentence about the partition: "It starts on a 1 MiB boundary."
QString AlignmentVerdict::explanation(const AlignmentGeometry &g) const
{
    switch (status) {
    case AlignmentStatus::Aligned:
        //: Completes "The partition ...". %1 is a size such as "1 MiB".
        return QCoreApplication::translate("AlignmentVerdict", "starts on a %1 boundary")
            .arg(sizeWord(g.grainBytes));
    case AlignmentStatus::SectorAligned:
        //: Completes "The partition ...". %1 and %3 are sizes such as "4 KiB", %2 a number.
        return QCoreApplication::translate(
                   "AlignmentVerdict",
                   "starts on a %1 physical sector but %2 bytes past a %3 boundary")
            .arg(sizeWord(g.physicalAssumed), groupedNumber(offsetInGrain), sizeWord(g.grainBytes));
    case AlignmentStatus::Misaligned:
        //: Completes "The partition ...". %1 is a number of bytes, %2 a size such as "4 KiB".
        return QCoreApplication::translate("AlignmentVerdict",
                                           "starts %1 bytes past a %2 boundary: every write "
                                           "straddles two physical sectors")
            .arg(groupedNumber(misalignmentBytes), sizeWord(g.physicalAssumed));
    case AlignmentStatus::Container:
        return QCoreApplication::translate(
            "AlignmentVerdict", "extended partition: a container for logical partitions, exempt");
    case AlignmentStatus::NotApplicable:
        break;
    }
    return QString();
}

} // namespace partwise
