#pragma once

#include <QString>

namespace partwise::move {

// Whether a move journal kept at a path survives a power cut. It does not when its folder is
// held in memory: tmpfs or ramfs, or an overlay whose writable layer is (the root of most live
// USB sessions, where /var/lib/partwise is in RAM). A kill -9 is survived either way; a power
// cut in the middle of a move would then lose the only record of where the data is.
struct JournalDurability
{
    bool survivesPowerCut = true;
    QString filesystem; // "tmpfs", "ramfs", "overlay on tmpfs"; empty when it survives
    // A sentence for the user when it does not survive, naming the way out (--journal).
    QString warning;
};

JournalDurability journalDurability(const QString &journalPath);

} // namespace partwise::move
