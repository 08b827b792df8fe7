#pragma once

// "Unmount and continue": frees every partition of a disk for a job that writes its table (a
// realignment, an Apply), one helper call after another (unmount, or swapoff for swap), and
// remembers what it freed so the window can offer to mount it back when the job ends. The first
// refusal stops it and says why, naming the programs that keep a filesystem busy; what was freed
// before stays freed (the person may close those programs and try again).

#include "disklistmodel.h"

#include <QObject>
#include <QPointer>

#include <functional>

class PartitionMounter;

class DiskReleaser : public QObject
{
    Q_OBJECT

public:
    struct Freed
    {
        int number = 0;
        bool swap = false;
    };
    // `ok`, or the sentence saying what stays busy.
    using Done = std::function<void(bool ok, const QString &message)>;

    DiskReleaser(PartitionMounter *mounter, QObject *parent = nullptr);

    // Unmounts (swaps off) each partition of `entry`'s layout in turn; only those numbered in
    // `numbers` when it is not empty (an Apply that works inside partitions).
    void release(const DiskEntry &entry, const Done &done, const QList<int> &numbers = {});
    // Mounts back (swaps on) what release() freed on `entry`'s disk, then forgets it.
    void restore(const DiskEntry &entry, const Done &done);
    // What release() freed on the disk `key` and was not put back yet.
    QList<Freed> freed(const QString &key) const { return m_freed.value(key); }

private:
    void next(const DiskEntry &entry, QList<Freed> todo, bool restoring, const Done &done,
              QStringList problems);

    PartitionMounter *m_mounter;
    QHash<QString, QList<Freed>> m_freed;
};
