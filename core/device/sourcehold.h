#pragma once

// A disk to be read held unchanged between a plan and the copy it plans, so that what the plan
// read of it (the used-block maps, which take a read of every filesystem's metadata) need not
// be read again at the copy.
//
// A block device is claimed exclusively (O_EXCL), as the kernel lets one opener do: while the
// claim is held no filesystem on it or on its partitions can be mounted, and no other tool that
// claims it (mkfs, fsck, another partition editor) can start. A device that cannot be claimed
// (a filesystem on it is mounted read-only, which a copy allows) is not held: its maps are read
// again. An image file cannot be claimed; it is held by what stat says of it (the same file, the
// same size, modification and change times), since every write through the filesystem, and so
// through a loop device over it, moves its times (to the clock's tick: a writer that raced the
// plan within one tick would be racing the copy itself too).

#include <QString>

#include <memory>
#include <sys/stat.h>

namespace partwise {

class SourceHold
{
public:
    // Null when `path` cannot be held (see above).
    static std::shared_ptr<const SourceHold> take(const QString &path);
    ~SourceHold();
    SourceHold(const SourceHold &) = delete;
    SourceHold &operator=(const SourceHold &) = delete;

    // True while what was read under the hold is still what the disk holds.
    bool unchanged() const;

private:
    SourceHold(QString path, int claim, const struct stat &st);

    QString m_path;
    int m_claim = -1; // the exclusive descriptor of a block device; -1 for an image
    struct stat m_stat
    {
    };
};

} // namespace partwise
