#include "ops/copydata.h"

#include "fs/usedblocks.h"

#include <QDir>

#include <algorithm>

namespace partwise {

using move::Extent;

QString CopyDataOf::scratchPath(const CopyPartitionPlan &p) const
{
    return QDir(m_j.scratchFolder).filePath(QStringLiteral("partition-%1.img").arg(p.sourceNumber));
}

QString CopyDataOf::path(const CopyPartitionPlan &p) const
{
    return p.data == CopyData::Shrunk ? scratchPath(p) : m_j.source;
}

qint64 CopyDataOf::offset(const CopyPartitionPlan &p) const
{
    return p.data == CopyData::Shrunk ? 0 : p.oldStart * m_j.plan.sourceSectorSize;
}

qint64 CopyDataOf::length(const CopyPartitionPlan &p) const
{
    const qint64 newBytes = (p.newEnd - p.newStart + 1) * m_j.plan.targetSectorSize;
    if (p.data == CopyData::Shrunk)
        return p.newFilesystemBytes;
    return std::min((p.oldEnd - p.oldStart + 1) * m_j.plan.sourceSectorSize, newBytes);
}

// The map the plan read, while the source is held unchanged since (device/sourcehold.h).
const std::vector<Extent> *CopyDataOf::plannedMap(const CopyPartitionPlan &p) const
{
    if (!m_planned || p.data != CopyData::UsedBlocks || !m_planned->hold->unchanged())
        return nullptr;
    const CopySourceFacts::Partition *f = m_planned->facts.byNumber(p.sourceNumber);
    const bool whole = length(p) == (p.oldEnd - p.oldStart + 1) * m_j.plan.sourceSectorSize;
    return f && f->hasMap && whole ? &f->used : nullptr;
}

std::vector<Extent> CopyDataOf::extents(const CopyPartitionPlan &p)
{
    auto known = m_extents.find(p.sourceNumber);
    if (known == m_extents.end())
        known = m_extents.emplace(p.sourceNumber, readExtents(p)).first;
    return known->second;
}

std::vector<Extent> CopyDataOf::readExtents(const CopyPartitionPlan &p)
{
    const qint64 bytes = length(p);
    if (const std::vector<Extent> *planned = plannedMap(p))
        return *planned;
    if (p.data == CopyData::UsedBlocks || p.data == CopyData::Shrunk) {
        QString why;
        if (auto used = usedExtents(path(p), offset(p), bytes, p.filesystem, &why))
            return *used;
        if (m_log)
            m_log(QStringLiteral("  partition %1: copying every byte: %2")
                      .arg(p.sourceNumber)
                      .arg(why));
    }
    return {Extent{0, quint64(bytes)}};
}

} // namespace partwise
