#pragma once

#include <QString>

namespace partwise {

// A disk that came, went, or changed, as the disk list sees it (device/diskmonitor.h): a loop
// device counts as added once a file is bound to it and as removed when it is let go, a card
// reader when a medium is in it; a partition that appears or goes makes its disk "changed".
struct DiskEvent
{
    enum class Kind { Added, Removed, Changed };

    Kind kind = Kind::Changed;
    QString path;         // the disk's node, /dev/sdb
    qint64 sizeBytes = 0; // as the kernel says now; 0 once removed
    QString reason;       // what happened, in words: "partition sdb1 appeared", "its size changed"
};

// "added", "removed", "changed": the words of `partwise-cli watch --json`.
QString diskEventKindName(DiskEvent::Kind kind);

} // namespace partwise
