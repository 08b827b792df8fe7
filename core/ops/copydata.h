#pragma once

// Where each partition's data of a running copy is read, and which of its bytes are copied:
// the source disk at the partition's old start, or the shrunk scratch copy beside the journal;
// the used blocks the plan mapped (while the source is held unchanged since), a map read again,
// or every byte when no map can be had. A map is read once a run: the discard before the copy
// (copydiscard.h) and the copy itself ask for the same extents.

#include "device/sourcehold.h"
#include "move/moverequest.h"
#include "ops/copyjournal.h"

#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace partwise {

class CopyDataOf
{
public:
    // What the plan read of the source, and the hold that keeps it true.
    struct Planned
    {
        const CopySourceFacts &facts;
        std::shared_ptr<const SourceHold> hold;
    };

    CopyDataOf(const CopyJournal &journal, std::function<void(const QString &)> log)
        : m_j(journal), m_log(std::move(log))
    {
    }
    void usePlanned(const Planned *planned) { m_planned = planned; }

    QString scratchPath(const CopyPartitionPlan &p) const;
    QString path(const CopyPartitionPlan &p) const;  // the source, or its scratch copy
    qint64 offset(const CopyPartitionPlan &p) const; // of the data in path()
    qint64 length(const CopyPartitionPlan &p) const; // of the data the target gets
    std::vector<move::Extent> extents(const CopyPartitionPlan &p); // relative to offset()

private:
    const std::vector<move::Extent> *plannedMap(const CopyPartitionPlan &p) const;
    std::vector<move::Extent> readExtents(const CopyPartitionPlan &p);

    const CopyJournal &m_j;
    std::function<void(const QString &)> m_log;
    const Planned *m_planned = nullptr;
    std::map<int, std::vector<move::Extent>> m_extents; // by source partition number
};

} // namespace partwise
