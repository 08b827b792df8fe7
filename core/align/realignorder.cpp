#include "align/realignorder.h"

namespace partwise::align {

namespace {

enum class Role { Data, Widen, Narrow };

struct Step
{
    PartitionMove move;
    Role role = Role::Data;
};

bool overlaps(qint64 aStart, qint64 aEnd, qint64 bStart, qint64 bEnd)
{
    return aStart <= bEnd && bStart <= aEnd;
}

bool isLogical(const Step &s)
{
    return s.move.kind == PartitionInfo::Kind::Logical;
}

// A logical partition's EBR sits in the sector before it (libparted rewrites it there, after
// the previous logical partition): its place counts as part of the partition.
bool collide(const Step &a, const Step &b)
{
    const qint64 ebrA = isLogical(a) ? 1 : 0, ebrB = isLogical(b) ? 1 : 0;
    return overlaps(a.move.newStart - ebrA, a.move.newEnd, b.move.oldStart - ebrB, b.move.oldEnd);
}

// Whether step a may run while `pending` still wait. A logical partition waits for its
// container to be widened; the container is narrowed once they have all moved.
bool ready(const Step &a, const QList<Step> &pending)
{
    for (const Step &b : pending) {
        if (&a == &b)
            continue;
        switch (a.role) {
        case Role::Narrow:
            if (isLogical(b) || b.role == Role::Widen)
                return false;
            break;
        case Role::Widen:
            if (b.role == Role::Data && !isLogical(b) &&
                overlaps(a.move.newStart, a.move.newEnd, b.move.oldStart, b.move.oldEnd))
                return false;
            break;
        case Role::Data:
            if (isLogical(a) && b.role == Role::Widen)
                return false;
            if (isLogical(a) == isLogical(b) && collide(a, b))
                return false;
            break;
        }
    }
    return true;
}

} // namespace

QList<PartitionMove> orderMoves(const QList<PartitionMove> &moves)
{
    QList<Step> pending;
    for (const PartitionMove &m : moves) {
        if (!m.tableOnly()) {
            pending << Step{m, Role::Data};
            continue;
        }
        PartitionMove widen = m, narrow = m;
        widen.newStart = std::min(m.oldStart, m.newStart);
        widen.newEnd = std::max(m.oldEnd, m.newEnd);
        narrow.oldStart = widen.newStart;
        narrow.oldEnd = widen.newEnd;
        pending << Step{widen, Role::Widen} << Step{narrow, Role::Narrow};
    }
    QList<PartitionMove> ordered;
    while (!pending.isEmpty()) {
        int next = 0; // a consistent plan always has a ready step; keep disk order otherwise
        for (int a = 0; a < pending.size(); ++a)
            if (ready(pending[a], pending)) {
                next = a;
                break;
            }
        ordered << pending.takeAt(next).move;
    }
    return ordered;
}

} // namespace partwise::align
