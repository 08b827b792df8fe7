#pragma once

// Whether a copy's target can be told which of its bytes hold nothing (TRIM): an image file by
// punching holes, a block device by a discard when its queue takes them (the kernel's
// queue/discard_max_bytes is above 0: SSDs, NVMe, thin LVM, loop devices over files). A drive
// that takes discards is not assumed to read zeros afterwards: nothing relies on what a
// discarded range reads back.

#include <QString>

namespace partwise {

enum class DiscardWay { None, PunchHoles, Trim };

struct DiscardSupport
{
    DiscardWay way = DiscardWay::None;
    qint64 granularity = 0; // bytes; a discard is rounded inward to it (0: the sector size)
    QString why;            // when way is None: why not
};

// Asked of the file or device `path` names (a whole disk: a partition's queue is its disk's).
DiscardSupport discardSupportOf(const QString &path);

} // namespace partwise
