// prepareCopy(): everything planCopy() needs, read from both disks without writing to either.

#include "ops/copyplan.h"

#include "base/mounttable.h"
#include "base/twoatatime.h"
#include "boot/bootinventory.h"
#include "boot/partitionentries.h"
#include "device/busycheck.h"
#include "device/filesystemprobe.h"
#include "device/kernelholder.h"
#include "device/loopbacking.h"
#include "fs/filesystemresize.h"
#include "fs/filesystemsize.h"
#include "fs/resizelimit.h"
#include "fs/usedblocks.h"
#include "ops/copysectorsize.h"
#include "ops/copyshrink.h"
#include "table/diskreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

// The block devices that show `path`: the disk itself and its partitions, or for an image the
// loop devices backed by it and theirs.
QStringList nodesShowing(const QString &path, bool isImage)
{
    QStringList disks;
    if (isImage) {
        // By the file the kernel holds, not by the name sysfs gives it (device/loopbacking.h).
        const QString canonical = QFileInfo(path).canonicalFilePath();
        struct stat image;
        if (::stat(QFile::encodeName(path).constData(), &image) == 0)
            for (const LoopBacking &loop : loopBackings(readMountTable()))
                if (loop.shows(image, canonical))
                    disks << QFileInfo(loop.loop).fileName();
    } else {
        disks << QFileInfo(QFileInfo(path).canonicalFilePath()).fileName();
    }
    QStringList nodes;
    for (const QString &disk : disks) {
        nodes << QStringLiteral("/dev/") + disk;
        const QDir dir(QStringLiteral("/sys/class/block/") + disk);
        for (const QString &sub : dir.entryList({disk + QLatin1Char('*')}, QDir::Dirs))
            if (QFile::exists(dir.filePath(sub) + QStringLiteral("/partition")))
                nodes << QStringLiteral("/dev/") + sub;
    }
    return nodes;
}

bool sameRdev(const QString &a, const QString &b)
{
    struct stat sa
    {
    }, sb{};
    return ::stat(QFile::encodeName(a).constData(), &sa) == 0 &&
           ::stat(QFile::encodeName(b).constData(), &sb) == 0 && S_ISBLK(sa.st_mode) &&
           S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev;
}

// The partition number the kernel gives `node`, or 0 for a whole disk (or a node it cannot read).
int partitionNumberOf(const QString &node)
{
    QFile number(
        QStringLiteral("/sys/class/block/%1/partition").arg(node.section(QLatin1Char('/'), -1)));
    return number.open(QIODevice::ReadOnly) ? number.readAll().trimmed().toInt() : 0;
}

} // namespace

// A source is read while its filesystems may be in use only if none can change: a read-only
// mount is fine, a read-write one (or active swap) is not, and neither is a writable
// device-mapper or md device over it (an open LUKS mapping, an active LVM volume, a running
// RAID), through which its bytes change while they are copied.

QStringList copySourceRefusals(const QString &source, bool isImage, int onlyPartition)
{
    QStringList reasons;
    QStringList nodes = nodesShowing(source, isImage);
    if (onlyPartition > 0)
        nodes.removeIf([onlyPartition](const QString &node) {
            const int number = partitionNumberOf(node);
            return number != 0 && number != onlyPartition;
        });
    for (const MountEntry &m : readMountTable())
        for (const QString &node : nodes)
            if (m.source == node || sameRdev(m.source, node)) {
                const QStringList options = m.fsOptions.split(QLatin1Char(','));
                if (!options.contains(QStringLiteral("ro")))
                    reasons << QStringLiteral(
                                   "%1 is mounted read-write on %2: a filesystem that may "
                                   "change while it is read gives no consistent copy. Unmount "
                                   "it, or remount it read-only (mount -o remount,ro %2).")
                                   .arg(node, m.target);
            }
    for (const QString &swap : activeSwaps())
        for (const QString &node : nodes)
            if (swap == node || sameRdev(swap, node))
                reasons << QStringLiteral("%1 is in use as swap: run swapoff %1 first.").arg(node);
    for (const QString &node : nodes)
        for (const QString &holder : kernelHoldersOf(node.section(QLatin1Char('/'), -1)))
            if (!kernelHolderIsReadOnly(holder))
                reasons << QStringLiteral("%1 is held by %2, through which it may change while "
                                          "it is read: no consistent copy.")
                               .arg(node, describeKernelHolder(holder));
    reasons.removeDuplicates();
    return reasons;
}

namespace {

bool sameFile(const QString &a, const QString &b)
{
    struct stat sa
    {
    }, sb{};
    if (::stat(QFile::encodeName(a).constData(), &sa) != 0 ||
        ::stat(QFile::encodeName(b).constData(), &sb) != 0)
        return false;
    if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode))
        return sa.st_rdev == sb.st_rdev;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Each filesystem's used blocks, two partitions at a time: a map is a tool's read of scattered
// metadata, and the disk answers two such reads at once about as fast as one.
// The first 512 bytes of the filesystem at `offset` (empty when unreadable): what a FAT or NTFS
// records of its geometry, judged before a copy across sector sizes.
QByteArray firstBytesOf(const QString &source, qint64 offset)
{
    QFile f(source);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Unbuffered) || !f.seek(offset))
        return QByteArray();
    QByteArray bytes = f.read(512);
    return bytes.size() == 512 ? bytes : QByteArray();
}

void readMaps(const QString &source, const DiskLayout &layout, CopySourceFacts *facts)
{
    const qint64 sss = layout.device.topology.logicalSectorSize;
    CopySourceFacts::Partition *partitions = facts->partitions.data(); // detached once, here
    twoAtATime(int(facts->partitions.size()), [&](int i) {
        CopySourceFacts::Partition &f = partitions[i];
        const PartitionInfo *p = layout.partitionByNumber(f.number);
        if (!p || p->isContainer() || !usedExtentsSupported(p->filesystem))
            return;
        QString why;
        if (auto used = usedExtents(source, p->startSector * sss, p->lengthSectors() * sss,
                                    p->filesystem, &why)) {
            f.hasMap = true;
            f.usedBytes = extentBytes(*used);
            f.used = std::move(*used);
        } else {
            f.wholeReason = why;
        }
    });
}

} // namespace

PreparedCopy prepareCopy(const QString &source, const QString &target, const CopyOptions &options)
{
    PreparedCopy prepared;
    DiskReadOptions readOptions;
    readOptions.forcedSectorSize = options.forcedSourceSectorSize;
    readOptions.useMeasurements = false;
    const DiskReadResult src = readDisk(source, readOptions);
    if (!src.ok) {
        prepared.error = src.error;
        return prepared;
    }
    prepared.source = src.layout;
    const qint64 sss = src.layout.device.topology.logicalSectorSize;

    DiskReadOptions targetOptions;
    targetOptions.forcedSectorSize = options.forcedTargetSectorSize;
    targetOptions.probeFilesystems = false;
    targetOptions.useMeasurements = false;
    const DiskReadResult tgt = readDisk(target, targetOptions);
    if (!tgt.ok) {
        prepared.error = tgt.error;
        return prepared;
    }
    prepared.target.path = target;
    prepared.target.sizeBytes = tgt.layout.device.sizeBytes;
    prepared.target.isBlockDevice = !tgt.layout.device.isImage;
    prepared.target.sectorSize = tgt.layout.device.topology.logicalSectorSize;
    // An image with no table has no sector size of its own yet: it takes the source's.
    if (tgt.layout.device.isImage && options.forcedTargetSectorSize == 0 &&
        tgt.layout.tableType.isEmpty())
        prepared.target.sectorSize = sss;
    prepared.target.sameAsSource = sameFile(source, target);
    prepared.target.discard = discardSupportOf(target);
    if (tgt.layout.device.readOnly)
        prepared.facts.busyTarget << QStringLiteral("%1 is read-only.").arg(target);

    CopySourceFacts &facts = prepared.facts;
    facts.busySource = copySourceRefusals(source, src.layout.device.isImage);
    if (!prepared.target.sameAsSource)
        for (const QString &r : busyReasons(target, 0))
            facts.busyTarget << QStringLiteral("The target is in use: ") + r;

    // Held from before the filesystems are measured and mapped until the copy that uses the
    // maps ends (device/sourcehold.h).
    if (facts.busySource.isEmpty() && !prepared.target.sameAsSource)
        prepared.sourceHold = SourceHold::take(source);
    const FilesystemProbe units(source, sss);
    for (const PartitionInfo &p : src.layout.partitions()) {
        CopySourceFacts::Partition f;
        f.number = p.number;
        if (p.isContainer()) {
            facts.partitions << f;
            continue;
        }
        const qint64 length = p.lengthSectors() * sss;
        FilesystemLocation where;
        where.path = source;
        where.offset = p.startSector * sss;
        where.isImage = true;
        if (!p.filesystem.isEmpty() && p.filesystem != QLatin1String("swap"))
            f.filesystemBytes = filesystemSizeBytes(where, p.filesystem).value_or(0);
        // NTFS is not measured (fs/filesystemsize), but it fills its partition: its backup boot
        // sector is the partition's last. Onto a larger partition it must grow with it, or
        // ntfs-3g finds no backup boot sector at the new end and refuses the volume.
        if (p.filesystem == QLatin1String("ntfs") && f.filesystemBytes == 0)
            f.filesystemBytes = length;
        if (units.isOpen() && !p.filesystem.isEmpty())
            f.unitBytes = units.probe(where.offset, length).blockSize;
        if (convertsBootSector(p.filesystem))
            f.bootSector = firstBytesOf(source, where.offset);
        f.resizeLimit = resizeLimitOf(where, length, p.filesystem);
        f.canGrow = p.filesystem.isEmpty() || p.filesystem == QLatin1String("swap") ||
                    (canGrowUnmounted(p.filesystem) && f.resizeLimit.isEmpty());
        if (!p.filesystem.isEmpty() && p.filesystem != QLatin1String("swap") &&
            !usedExtentsSupported(p.filesystem))
            f.wholeReason =
                QStringLiteral("Partwise has no map of the blocks %1 uses").arg(p.filesystem);
        facts.partitions << f;
    }
    if (facts.busySource.isEmpty())
        readMaps(source, src.layout, &facts);

    // Read as a realignment reads it (its Windows boot menu too), so the copy's verdicts on
    // booting are the realignment's; firmware entries name the source's disk, not the copy.
    facts.boot = readBootInventory(src.layout);
    const BootInventory &boot = facts.boot;
    facts.mbrBootCode = boot.mbrCode != MbrCode::None && boot.mbrCode != MbrCode::Empty;
    facts.gptMbrInstalled = QFileInfo(QString::fromLatin1(kSyslinuxGptMbr)).size() >= 440;
    if (boot.grubCore && boot.grubCore->place == GrubCoreInfo::Place::MbrGap) {
        facts.grubInMbrGap = true;
        facts.grubGapLastSector = qint64(boot.grubCore->lastSector);
    }
    facts.grubBiosBoot = boot.biosBootPartition != 0;
    const int fd = ::open(QFile::encodeName(source).constData(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        const PartitionEntries entries = readPartitionEntries(fd, sss);
        ::close(fd);
        if (entries.ok) {
            facts.diskSignature = entries.diskId;
            for (const PartitionEntry &e : entries.entries) {
                facts.typeIds[e.number] = e.typeId();
                if (!e.partitionGuid.isEmpty())
                    facts.partitionGuids[e.number] = e.partitionGuid;
            }
        }
    }

    prepared.journalPath = options.journalPath.isEmpty()
                               ? copyJournalPath(target, options.journalFolder)
                               : options.journalPath;
    prepared.plan = planCopy(prepared.source, facts, prepared.target, options);
    // A target too small for the sizes as they are: ask the filesystems how far they shrink,
    // which costs a tool run each, and plan again.
    if (!prepared.plan.ok() && facts.busySource.isEmpty() && facts.busyTarget.isEmpty() &&
        prepared.plan.partitions.isEmpty()) {
        bool asked = false;
        for (CopySourceFacts::Partition &f : facts.partitions) {
            const PartitionInfo *p = src.layout.partitionByNumber(f.number);
            if (!p || p->isContainer())
                continue;
            const FilesystemLocation where{source, p->startSector * sss, true};
            const auto used = f.hasMap ? std::optional<quint64>(f.usedBytes) : std::nullopt;
            if (const auto min =
                    copyShrinkMinimumBytes(where, p->lengthSectors() * sss, p->filesystem, used)) {
                f.minimumBytes = *min;
                asked = true;
            }
        }
        if (asked)
            prepared.plan = planCopy(prepared.source, facts, prepared.target, options);
    }
    prepared.ok = true;
    return prepared;
}

} // namespace partwise
