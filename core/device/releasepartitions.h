#pragma once

// `--unmount` of apply, realign and copy: before a job writes to a disk, what it touches is
// unmounted (every place) and its swap turned off, and afterwards put back as it was. Something
// that stays busy stops it all: what was released already is put back at once, so a refusal
// leaves the disk as it found it, and the message names the processes that hold it.

#include "device/mountcontrol.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace partwise {

struct ReleasedPartition
{
    QString disk; // the whole disk it is on
    int number = 0;
    PartitionNode node;
    QList<MountPlace> places; // where it was mounted
    bool swap = false;        // it was in use as swap
    QString uuid;             // its filesystem's (or swap area's) UUID, to know it again
};

struct ReleaseOutcome
{
    bool ok = false;
    QString error;
    QList<ReleasedPartition> released;
};

// Unmounts and swaps off partitions `numbers` of the whole disk `diskPath` (empty: all its
// partitions). An image file or a disk without partition devices has nothing to release.
ReleaseOutcome releasePartitions(const QString &diskPath, const QList<int> &numbers,
                                 const std::function<void(const QString &)> &log);

// Mounts back and swaps on what was released, each only where the same filesystem (its UUID) is
// still found at that partition's number (a job may have formatted or deleted it); the sentences of
// what could not be put back (each with the command that does it by hand), empty when all was.
QStringList restorePartitions(const QList<ReleasedPartition> &released,
                              std::optional<uid_t> servedUser,
                              const std::function<void(const QString &)> &log);

} // namespace partwise
