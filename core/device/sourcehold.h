#pragma once

// A disk to be read held unchanged between a plan and the copy it plans, so that what the plan
// read of it (the used-block maps, which take a read of every filesystem's metadata) need not
// be read again at the copy.
//
// A block device is claimed exclusively (O_EXCL), as the kernel lets one opener do: while the
// claim is held no filesystem on it or on its partitions can be mounted, and mkfs, fsck and the
// like cannot start. What writes without claiming (dd, debugfs -w, a virtual machine) is caught
// by the kernel's count of the sectors written and discarded on the disk (its sysfs stat), and a
// loop device's backing file is held as an image is (a backing device by its counts too). A device
// that cannot be claimed (a filesystem on it is mounted read-only, which a copy allows) is not
// held: its maps are read again.
//
// A disk the holder is about to write itself (a realignment) is not claimed: its own checks
// before the first write open it exclusively, and its writes are its own. It is held by its
// counts (and a loop device's backing file by its stat), and only until the holder's first
// write: after that they count its writes too.
//
// An image file cannot be claimed; it is held by what stat says of it (the same file, size,
// modification and change times), since every write through the filesystem, and so through a
// loop device over it, moves its times. Times move in clock ticks, so a write in the same tick
// as the stat could go unseen: an image written in the last two seconds is not held.

#include <QString>

#include <memory>
#include <sys/stat.h>
#include <utility>
#include <vector>

namespace partwise {

class SourceHold
{
public:
    enum class Claim { Exclusive, None };
    // Null when `path` cannot be held (see above).
    static std::shared_ptr<const SourceHold> take(const QString &path,
                                                  Claim claim = Claim::Exclusive);
    ~SourceHold();
    SourceHold(const SourceHold &) = delete;
    SourceHold &operator=(const SourceHold &) = delete;

    // True while what was read under the hold is still what the disk holds.
    bool unchanged() const;

private:
    // An image, or a loop device's backing file: an O_PATH descriptor of it, and what fstat said
    // of it when the hold was taken.
    struct FileState
    {
        int fd = -1;
        struct stat st
        {
        };
        ~FileState();
    };
    SourceHold() = default;
    bool holdFile(int fd, const struct stat &st); // takes `fd`, closed when not held
    bool holdCounts(dev_t device);

    int m_claim = -1; // the exclusive descriptor of a block device; -1 for an image
    // Each device's sysfs stat and its sectors written and discarded when the hold was taken:
    // the claimed device, and a loop device's backing device.
    std::vector<std::pair<QString, QString>> m_counts;
    std::unique_ptr<FileState> m_file; // an image, or a loop device's backing file
};

} // namespace partwise
