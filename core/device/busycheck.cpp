#include "device/busycheck.h"

#include "device/kernelholder.h"
#include "device/kernelpartitions.h"
#include "device/loopbacking.h"
#include "device/sysfsline.h"
#include "device/volumegroupuse.h"

#include "base/mounttable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

bool statPath(const QString &path, struct stat *st)
{
    return ::stat(QFile::encodeName(path).constData(), st) == 0;
}

// stat() of a path the kernel wrote: a loop device's backing file, a swap area. Such a file may
// lie on a user's FUSE filesystem (udisks lets a desktop user set up a loop device over any file
// of its own), whose daemon can keep a stat() waiting for ever and with it root's busy check. The
// mount table says where the path lies without asking any filesystem; on one that may stall the
// file is left unexamined: it is no block device there (a user's FUSE mount is nodev), and
// loopDevicesOf() knows it by its path instead.
bool statKernelPath(const QList<MountEntry> &mounts, const QString &path, struct stat *st)
{
    const MountEntry *mount = mountHolding(mounts, path);
    return mount && !mayStall(*mount) && statPath(path, st);
}

// A block device as sysfs and /dev know it: "/sys/devices/.../loop0/loop0p1", "/dev/loop0p1".
struct BlockNode
{
    QString folder;   // canonical sysfs folder
    QString node;     // the name people know it by
    QString openPath; // a node whose device number is this one's; empty when none was found
    dev_t device = 0;
    int number = 0; // partition number; 0 for a whole device
};

// What the kernel says is using any device: read once per question.
struct KernelTables
{
    QList<MountEntry> mounts = readMountTable();
    QList<dev_t> swaps;       // block devices in use as swap
    QList<LoopBacking> loops; // every bound loop device, by what it shows
    // Not empty when a table could not be read: then nothing counts as free (a live system
    // always has a mount, its root).
    QString unreadable;

    KernelTables()
    {
        if (mounts.isEmpty())
            unreadable = QStringLiteral("the kernel's mount table (/proc/self/mountinfo) could not "
                                        "be read");
        for (const QString &swap : activeSwaps()) {
            struct stat st
            {
            };
            if (statKernelPath(mounts, swap, &st) && S_ISBLK(st.st_mode))
                swaps << st.st_rdev;
        }
        loops = loopBackings(mounts);
        for (const LoopBacking &loop : loops)
            if (loop.unanswered != 0 && unreadable.isEmpty())
                unreadable =
                    QStringLiteral("loop device %1 did not say what it shows (%2)")
                        .arg(loop.loop, QString::fromLocal8Bit(std::strerror(loop.unanswered)));
    }
};

bool blockNodeAt(const QString &folder, const QString &givenPath, BlockNode *out)
{
    const QStringList dev = sysfsLine(folder + QStringLiteral("/dev")).split(QLatin1Char(':'));
    bool okMajor = false;
    bool okMinor = false;
    const unsigned maj = dev.value(0).toUInt(&okMajor);
    const unsigned min = dev.value(1).toUInt(&okMinor);
    if (!okMajor || !okMinor)
        return false;
    out->folder = folder;
    out->device = makedev(maj, min);
    out->number = sysfsLine(folder + QStringLiteral("/partition")).toInt();
    out->node = QStringLiteral("/dev/") + QFileInfo(folder).fileName();
    struct stat st
    {
    };
    if (statPath(out->node, &st) && S_ISBLK(st.st_mode) && st.st_rdev == out->device)
        out->openPath = out->node;
    else if (!givenPath.isEmpty() && statPath(givenPath, &st) && st.st_rdev == out->device)
        out->openPath = out->node = givenPath;
    return true;
}

// The device `path` names, through /sys/dev/block (so /dev/disk/by-id links and partition
// devices are found as what they are).
bool blockNodeOf(const QString &path, BlockNode *out)
{
    struct stat st
    {
    };
    if (!statPath(path, &st) || !S_ISBLK(st.st_mode))
        return false;
    const QString folder =
        QFileInfo(
            QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev)))
            .canonicalFilePath();
    return !folder.isEmpty() && blockNodeAt(folder, path, out);
}

QList<BlockNode> partitionsOf(const BlockNode &disk)
{
    QList<BlockNode> out;
    if (disk.number != 0)
        return out;
    const QDir dir(disk.folder);
    for (const QString &entry : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        BlockNode part;
        if (QFile::exists(dir.filePath(entry + QStringLiteral("/partition"))) &&
            blockNodeAt(dir.filePath(entry), QString(), &part))
            out << part;
    }
    return out;
}

// What the kernel's tables say uses this very device (not its partitions).
QStringList namedReasons(const KernelTables &k, const BlockNode &n)
{
    QStringList out;
    for (const MountEntry &mount : k.mounts)
        if (mount.device == n.device)
            out << QStringLiteral("%1 is mounted on %2").arg(n.node, mount.target);
    if (k.swaps.contains(n.device))
        out << QStringLiteral("%1 is in use as swap").arg(n.node);
    const QStringList holders = kernelHoldersOf(QFileInfo(n.folder).fileName());
    for (const QString &holder : holders)
        out << QStringLiteral("%1 is held by %2").arg(n.node, describeKernelHolder(holder));
    // A physical volume whose group's volumes are active elsewhere (a held one names them).
    if (holders.isEmpty() && !n.openPath.isEmpty())
        if (const QString group = activeVolumeGroupReason(n.openPath); !group.isEmpty())
            out << group;
    for (const LoopBacking &loop : k.loops)
        if (loop.identified && loop.blockDevice != 0 && loop.blockDevice == n.device)
            out << QStringLiteral("%1 is the backing device of loop device %2")
                       .arg(n.node, loop.loop);
    out.removeDuplicates();
    return out;
}

// The kernel's own answer: an exclusive open fails with EBUSY while the device is mounted or
// claimed (and, for a whole disk, while any partition is). Closed at once. Any other failure
// (no descriptor left, no memory) says nothing either way: it is no answer of "free".
enum class Claim { Free, Claimed, Unknown };
struct ClaimAnswer
{
    Claim claim = Claim::Free;
    int error = 0;
};

ClaimAnswer claimOf(const BlockNode &n)
{
    if (n.openPath.isEmpty())
        return {};
    const int fd = ::open(QFile::encodeName(n.openPath).constData(),
                          O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0) {
        ::close(fd);
        return {};
    }
    const int code = errno;
    return {code == EBUSY ? Claim::Claimed : Claim::Unknown, code};
}

bool claimedByOther(const BlockNode &n)
{
    return claimOf(n).claim != Claim::Free;
}

QString cannotTell(const QString &what, const QString &why)
{
    return QStringLiteral("cannot tell whether %1 is in use: %2").arg(what, why);
}

QString unreadableSysfs()
{
    return QStringLiteral("its entry in /sys/dev/block could not be read");
}

QString claimedText(const BlockNode &n, const ClaimAnswer &answer)
{
    if (answer.claim == Claim::Unknown)
        return cannotTell(n.node, QStringLiteral("the kernel answered an exclusive open with: %1")
                                      .arg(QString::fromLocal8Bit(std::strerror(answer.error))));
    return n.number == 0
               ? QStringLiteral("%1 is in use: the kernel will not let Partwise open it "
                                "exclusively (another program, or something on one of its "
                                "partitions, holds it)")
                     .arg(n.node)
               : QStringLiteral("%1 is in use: the kernel will not let Partwise open it "
                                "exclusively (another program holds it, or its whole disk)")
                     .arg(n.node);
}

// The kernel's answer, when nothing named a reason already.
void addClaim(QStringList *out, const BlockNode &n)
{
    if (!out->isEmpty())
        return;
    if (const ClaimAnswer answer = claimOf(n); answer.claim != Claim::Free)
        *out << claimedText(n, answer);
}

// `disk` is a whole device (number 0).
QStringList reasonsOfDisk(const KernelTables &k, const BlockNode &disk, int number)
{
    QStringList out = namedReasons(k, disk);
    const QList<BlockNode> parts = partitionsOf(disk);
    if (number == 0) {
        for (const BlockNode &p : parts)
            out << namedReasons(k, p);
        addClaim(&out, disk);
        return out;
    }
    for (const BlockNode &p : parts) {
        if (p.number != number)
            continue;
        out << namedReasons(k, p);
        addClaim(&out, p);
        return out;
    }
    // The kernel knows no partition N. Without any partition a claim can only be of the whole.
    if (parts.isEmpty())
        addClaim(&out, disk);
    return out;
}

// A partition device taken as a disk: its own use and its parent's use as a whole. Its own
// exclusive open also fails while the parent is claimed as a whole.
QStringList reasonsOfPartitionDevice(const KernelTables &k, const BlockNode &part)
{
    QStringList out = namedReasons(k, part);
    BlockNode parent;
    if (blockNodeAt(QFileInfo(part.folder + QStringLiteral("/..")).canonicalFilePath(), QString(),
                    &parent))
        out << namedReasons(k, parent);
    addClaim(&out, part);
    return out;
}

QStringList reasonsOfBlockDevice(const KernelTables &k, const BlockNode &n, int number)
{
    return n.number == 0 ? reasonsOfDisk(k, n, number) : reasonsOfPartitionDevice(k, n);
}

// Loop devices whose backing file is `image` ("/dev/loop3"): the same inode, or, for a backing
// file on a filesystem that may stall, the same path as the kernel writes it.
QStringList loopDevicesOf(const KernelTables &k, const QString &image)
{
    struct stat want
    {
    };
    if (!statPath(image, &want))
        return {};
    const QString canonical = QFileInfo(image).canonicalFilePath();
    QStringList out;
    for (const LoopBacking &loop : k.loops)
        if (loop.shows(want, canonical))
            out << loop.loop;
    return out;
}

// The loop devices that show what `shown` shows (itself included).
QStringList loopDevicesLike(const KernelTables &k, const LoopBacking &shown)
{
    QStringList out;
    for (const LoopBacking &other : k.loops)
        if (shown.identified
                ? other.identified && other.fileSystem == shown.fileSystem &&
                      other.inode == shown.inode && other.blockDevice == shown.blockDevice
                : !other.identified && other.path == shown.path)
            out << other.loop;
    return out;
}

// Whether a loop device with autoclear (Partwise's own, or mount -o loop's) is over `target`.
bool autoclearLoopOver(const QString &target)
{
    struct stat want
    {
    };
    if (!statPath(target, &want))
        return false;
    // Only loop devices with autoclear are asked about: every busy question starts here.
    QStringList autoclear;
    const QDir block(QStringLiteral("/sys/block"));
    for (const QString &name : block.entryList({QStringLiteral("loop*")}, QDir::Dirs))
        if (sysfsLine(block.filePath(name + QStringLiteral("/loop/autoclear"))) ==
            QLatin1String("1"))
            autoclear << name;
    if (autoclear.isEmpty())
        return false;
    for (const LoopBacking &loop : loopBackingsOf(autoclear, readMountTable()))
        if (loop.identified && loop.shows(want, QString()))
            return true;
    return false;
}

// A loop device with autoclear goes on its last close, but the kernel runs it down in the
// background, and a tool of a job killed a moment ago may still hold one: the plan's own
// used-block maps leave such a loop device over the disk just before the write's check. One
// over the target is given two seconds to go before it counts as holding the disk; one
// that is mounted stays, and is named as before.
void settleAutoclearLoops(const QString &target)
{
    for (int i = 0; i < 20 && autoclearLoopOver(target); ++i)
        ::usleep(100 * 1000);
}

} // namespace

QStringList busyReasons(const QString &diskPath, int partitionNumber)
{
    settleAutoclearLoops(diskPath);
    struct stat st
    {
    };
    if (!statPath(diskPath, &st))
        return {};
    const KernelTables k;
    if (!k.unreadable.isEmpty())
        return {cannotTell(diskPath, k.unreadable)};
    BlockNode n;
    if (S_ISBLK(st.st_mode)) {
        if (!blockNodeOf(diskPath, &n))
            return {cannotTell(diskPath, unreadableSysfs())};
        QStringList out = reasonsOfBlockDevice(k, n, partitionNumber);
        // A loop device is its file: another loop device over the same file, mounted, holds
        // this one as much as a mount of its own would.
        for (const LoopBacking &loop : k.loops) {
            if (loop.loop != n.node || loop.blockDevice != 0)
                continue;
            for (const QString &sibling : loopDevicesLike(k, loop)) {
                BlockNode other;
                if (sibling == n.node || !blockNodeOf(sibling, &other))
                    continue;
                for (const QString &r : reasonsOfBlockDevice(k, other, 0))
                    out << QStringLiteral("%1 (%2 shows the same file, %3)")
                               .arg(r, sibling, loop.path);
            }
        }
        return out;
    }
    QStringList out;
    for (const QString &loop : loopDevicesOf(k, diskPath)) {
        // A loop device at an offset shows one partition of the image, or none: any use of a
        // loop device over the image counts as holding it.
        if (!blockNodeOf(loop, &n))
            continue;
        for (const QString &r : reasonsOfBlockDevice(k, n, partitionNumber))
            out << QStringLiteral("%1 (a loop device over %2)").arg(r, diskPath);
    }
    return out;
}

QStringList wholeDeviceBusyReasons(const QString &diskPath)
{
    settleAutoclearLoops(diskPath);
    const KernelTables k;
    if (!k.unreadable.isEmpty())
        return {cannotTell(diskPath, k.unreadable)};
    BlockNode disk;
    if (!blockNodeOf(diskPath, &disk))
        return {cannotTell(diskPath, unreadableSysfs())};
    QStringList out = namedReasons(k, disk);
    const ClaimAnswer whole = claimOf(disk);
    if (!out.isEmpty() || whole.claim == Claim::Free)
        return out;
    if (whole.claim == Claim::Unknown) // no answer; a partition's answer cannot stand in for it
        return {claimedText(disk, whole)};
    // Refused, but perhaps only because a partition is claimed: then it is that one's reason.
    for (const BlockNode &p : partitionsOf(disk))
        if (!namedReasons(k, p).isEmpty() || claimedByOther(p))
            return out;
    return {claimedText(disk, whole)};
}

QStringList partitionOwnBusyReasons(const QString &diskPath, int partitionNumber)
{
    settleAutoclearLoops(diskPath);
    const KernelTables k;
    if (!k.unreadable.isEmpty())
        return {cannotTell(diskPath, k.unreadable)};
    BlockNode disk;
    if (!blockNodeOf(diskPath, &disk))
        return {cannotTell(diskPath, unreadableSysfs())};
    for (const BlockNode &p : partitionsOf(disk)) {
        if (p.number != partitionNumber)
            continue;
        QStringList out = namedReasons(k, p);
        addClaim(&out, p);
        return out;
    }
    return {};
}

QStringList busyOverlapping(const QString &diskPath, qint64 startBytes, qint64 lengthBytes)
{
    QStringList out;
    for (const KernelPartitionPlace &k : kernelPartitionPlacesOfDisk(diskPath))
        if (k.overlaps(startBytes, lengthBytes))
            out << partitionOwnBusyReasons(diskPath, k.number);
    out.removeDuplicates();
    return out;
}

} // namespace partwise
