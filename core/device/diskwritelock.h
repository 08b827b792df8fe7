#pragma once

// One write job per disk at a time, across processes.
//
// A realignment, an Apply or a resume holds an exclusive BSD lock (flock) on the disk itself,
// the block device node or the image file, from before its first write until it ends; the
// kernel drops it if the process dies, so a crash never leaves a disk locked. This is the
// convention systemd documents for programs that partition disks (BLOCK_DEVICE_LOCKING): udev
// leaves a locked disk alone, so it does not probe a half-written table or announce partitions
// that are about to move, and util-linux's `sfdisk --lock`/`fdisk --lock` and another Partwise
// see the disk as busy instead of writing beside this one. The case it exists for: a
// connection to a helper drops mid-move, and the user reconnects and resumes while the first
// helper is still stopping; or two windows resume the same interrupted job.
//
// udev itself takes the lock shared, briefly, while it probes a disk that just changed, so a
// job waits a few seconds for the lock before it gives up. And udev holds back every event of a
// locked disk until the lock goes: whoever then waits for udev's queue while holding it (as
// libparted does after telling the kernel of a new table: `udevadm settle`) waits for good. So
// the lock is let go while the kernel is told of a table (whileUdevLooks), once the table is
// written; the job's exclusive claim (exclusiveclaim.h) keeps mounts out meanwhile.

#include <QString>

#include <functional>

namespace partwise {

class DiskWriteLock
{
public:
    explicit DiskWriteLock(const QString &target, int waitMilliseconds = 5000);
    ~DiskWriteLock();
    DiskWriteLock(const DiskWriteLock &) = delete;
    DiskWriteLock &operator=(const DiskWriteLock &) = delete;

    bool ok() const { return m_fd >= 0; }
    // Whether a write job holds `target`'s lock now (a shared lock cannot be had). Mount and
    // swapon through the helper refuse such a disk: a partition mounted mid-job is in use under
    // the job's feet (device/exclusiveclaim.h keeps the kernel from allowing it while data moves).
    // An error other than the lock being held counts as held.
    static bool heldByAJob(const QString &target);
    // Runs `work` with this process's lock of the disk `target` let go, and takes it again
    // afterwards (waiting, as the constructor does, for udev's shared lock to go). Without such a
    // lock held here, `work` simply runs. False when the lock could not be taken again.
    static bool whileUdevLooks(const QString &target, const std::function<void()> &work);
    // Why the lock was not taken: a sentence that ends in "Nothing was changed."
    QString error() const { return m_error; }

private:
    int m_fd = -1;
    QString m_error;
};

} // namespace partwise
