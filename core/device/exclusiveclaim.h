#pragma once

// A block device claimed for the kernel's exclusive use (open with O_EXCL) while a job writes it.
//
// A job's busy check says what held a disk when it looked; a partition mounted a second later,
// by a second root helper of the same user, udisks or a person at a shell, would have the job
// moving data under a live filesystem. While a claim is held, the kernel refuses every other
// claim of the device and, for a whole disk, of each of its partitions: no mount, no swapon, no
// device-mapper, md or LUKS mapping, no mkfs or fsck (which open exclusively). The job's own plain
// opens (the mover, libparted's table writes) are not claims and go on working. A claim taken
// just before a write also checks that nothing took the device since the busy check: it fails
// if anything else holds it.
//
// Filesystem tools open the partitions exclusively themselves, and temporary mounts claim them,
// so a job holds a claim around its own writes (data moves, table commits), not around tools.
// Anything other than a block device (an image file) is not claimed: an image is its owner's,
// and what mounts it attaches it first, as another device.

#include <QByteArray>
#include <QString>

namespace partwise {

class OpenDisk;

class ExclusiveClaim
{
public:
    ExclusiveClaim() = default;
    ~ExclusiveClaim();
    ExclusiveClaim(const ExclusiveClaim &) = delete;
    ExclusiveClaim &operator=(const ExclusiveClaim &) = delete;

    // Claims `path` if it is a block device (true without claiming anything otherwise). False,
    // with `why` a sentence naming the device and the kernel's reason, when something else holds
    // it or one of its partitions.
    bool take(const QString &path, QString *why);
    // The same around a partition table write, except on a device-mapper disk (multipath, dmraid):
    // libparted tells the kernel of its partitions by creating mappings over it, which claim it,
    // so the write runs unclaimed there (the busy check before it stands alone, as it always did).
    bool takeForTableWrite(const QString &path, QString *why);
    // The same for a disk opened once at the job's entry: the claim is of the device that
    // descriptor holds, taken through it, not of whatever its name leads to by now.
    bool take(const OpenDisk &disk, QString *why);
    bool takeForTableWrite(const OpenDisk &disk, QString *why);
    bool held() const { return m_fd >= 0; }

private:
    bool claim(const QByteArray &openName, const QString &shown, QString *why);

    int m_fd = -1;
};

} // namespace partwise
