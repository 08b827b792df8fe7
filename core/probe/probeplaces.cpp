#include "probe/probeplaces.h"

#include "base/multiple.h"
#include "device/busycheck.h"
#include "device/kernelpartitions.h"
#include "device/writeprotection.h"
#include "table/diskreader.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <limits>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace partwise {

namespace {

constexpr qint64 kMiB = 1 << 20;

// The /sys/class/block folder of a block device ("/sys/devices/.../block/sdb"); empty if none.
QString sysfsFolder(const struct stat &st)
{
    return QFileInfo(
               QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev)))
        .canonicalFilePath();
}

// The partitions the kernel has for the disk in `folder`, each with why it is busy.
QList<KernelPartition> kernelPartitions(const QString &devicePath, const QString &folder)
{
    QList<KernelPartition> out;
    for (const KernelPartitionPlace &place : kernelPartitionPlaces(folder)) {
        KernelPartition k;
        k.number = place.number;
        k.startBytes = std::max<qint64>(place.startBytes, 0);
        k.sizeBytes = std::max<qint64>(place.sizeBytes, 0);
        k.busy = partitionOwnBusyReasons(devicePath, k.number);
        out << k;
    }
    return out;
}

QString partitionWhere(const PartitionInfo &p)
{
    return p.filesystem.isEmpty()
               ? QStringLiteral("partition %1 (no filesystem, not in use)").arg(p.number)
               : QStringLiteral("partition %1 (%2, not in use)").arg(p.number).arg(p.filesystem);
}

// `ranges` without [cutStart, cutEnd).
QList<ProbeRange> cutOut(const QList<ProbeRange> &ranges, qint64 cutStart, qint64 cutEnd)
{
    QList<ProbeRange> out;
    for (const ProbeRange &r : ranges) {
        if (cutEnd <= r.start || cutStart >= r.end) {
            out << r;
            continue;
        }
        if (r.start < cutStart)
            out << ProbeRange{r.start, cutStart, r.where};
        if (cutEnd < r.end)
            out << ProbeRange{cutEnd, r.end, r.where};
    }
    return out;
}

} // namespace

QList<ProbeRange> probeRanges(const DiskLayout &layout, const QList<KernelPartition> &kernel,
                              QStringList *notes)
{
    const qint64 ss = layout.device.topology.logicalSectorSize;
    const qint64 size = layout.device.sizeBytes;
    QList<int> busyNumbers;
    for (const KernelPartition &k : kernel)
        if (!k.busy.isEmpty())
            busyNumbers << k.number;

    QList<ProbeRange> ranges;
    if (layout.tableType.isEmpty()) {
        ranges << ProbeRange{0, size,
                             layout.wholeDiskFilesystem.isEmpty()
                                 ? QStringLiteral("the whole drive (no partition table)")
                                 : QStringLiteral("the whole drive (%1, not in use)")
                                       .arg(layout.wholeDiskFilesystem)};
    }
    for (const PartitionInfo &p : layout.regions) {
        const qint64 start = p.startSector * ss;
        const qint64 end = (p.endSector + 1) * ss;
        if (p.isFree()) {
            ranges << ProbeRange{start, end, QStringLiteral("free space")};
        } else if (p.isContainer()) {
            continue; // its EBRs are not free; its logical partitions and free space are listed
        } else if (busyNumbers.contains(p.number)) {
            if (notes)
                *notes << QStringLiteral("partition %1 is left alone: it is in use").arg(p.number);
        } else {
            ranges << ProbeRange{start, end, partitionWhere(p)};
        }
    }
    // Tables, boot code and the GPT backup; and what the kernel holds, whatever the table says.
    ranges = cutOut(ranges, 0, kMiB);
    ranges = cutOut(ranges, size - kMiB, std::numeric_limits<qint64>::max());
    for (const KernelPartition &k : kernel)
        if (!k.busy.isEmpty())
            ranges = cutOut(ranges, k.startBytes, k.startBytes + k.sizeBytes);
    return ranges;
}

QList<ProbePlace> chooseProbePlaces(const QList<ProbeRange> &ranges, int count, qint64 window)
{
    // Window slots per range: aligned to `window`, whole inside the range.
    struct Slots
    {
        qint64 first = 0;
        qint64 count = 0;
        QString where;
    };
    QList<Slots> room;
    qint64 total = 0;
    for (const ProbeRange &r : ranges) {
        const qint64 first = roundUp(r.start, window);
        const qint64 last = roundDown(r.end, window) - window; // start of the last whole window
        if (last < first)
            continue;
        room << Slots{first, (last - first) / window + 1, r.where};
        total += room.last().count;
    }
    QList<ProbePlace> places;
    const qint64 n = std::min<qint64>(count, total);
    for (qint64 i = 0; i < n; ++i) {
        qint64 k = (2 * i + 1) * total / (2 * n); // the middle of the i-th of n equal shares
        for (const Slots &s : room) {
            if (k < s.count) {
                places << ProbePlace{s.first + k * window, s.where};
                break;
            }
            k -= s.count;
        }
    }
    return places;
}

ProbeTarget examineProbeTarget(const QString &devicePath)
{
    ProbeTarget t;
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(devicePath).constData(), &st) != 0) {
        t.error = QStringLiteral("%1 does not exist.").arg(devicePath);
        return t;
    }
    if (!S_ISBLK(st.st_mode)) {
        t.error =
            QStringLiteral("%1 is not a block device. The probe times a drive; an image file's "
                           "write times are its filesystem's and the page cache's, so there is "
                           "nothing to measure (a loop device over it would measure the same).")
                .arg(devicePath);
        return t;
    }
    const QString folder = sysfsFolder(st);
    if (QFile::exists(folder + QStringLiteral("/partition"))) {
        t.error = QStringLiteral("%1 is a partition. The probe measures the whole drive, "
                                 "whose sectors the offsets are counted from: name the disk "
                                 "(it writes only where nothing is in use).")
                      .arg(devicePath);
        return t;
    }
    if (isWriteProtected(devicePath)) {
        t.error = QStringLiteral("%1 is read-only. The probe must write (the same bytes back) "
                                 "to time writes.")
                      .arg(devicePath);
        return t;
    }
    DiskReadOptions options;
    const DiskReadResult read = readDisk(devicePath, options);
    if (!read.ok) {
        t.error = read.error;
        return t;
    }
    t.device = read.layout.device;

    const QList<KernelPartition> kernel = kernelPartitions(devicePath, folder);
    const QStringList wholeDisk = wholeDeviceBusyReasons(devicePath);
    if (!wholeDisk.isEmpty()) {
        t.error = QStringLiteral("%1 is in use as a whole (%2); the probe writes only where "
                                 "nothing is in use.")
                      .arg(devicePath, wholeDisk.join(QStringLiteral("; ")));
        return t;
    }
    for (const KernelPartition &k : kernel)
        if (!k.busy.isEmpty())
            t.notes << k.busy;
    t.ranges = probeRanges(read.layout, kernel, &t.notes);
    t.notes.removeDuplicates();
    if (chooseProbePlaces(t.ranges, 1, probeWindowBytes()).isEmpty()) {
        t.error =
            QStringLiteral("Nothing on %1 may be written to: the probe needs %2 KiB of "
                           "free space or of a partition nothing uses, outside the first "
                           "and last MiB.%3")
                .arg(devicePath)
                .arg(probeWindowBytes() / 1024)
                .arg(t.notes.isEmpty() ? QString()
                                       : QStringLiteral(" In use: ") +
                                             t.notes.join(QStringLiteral("; ")) + QLatin1Char('.'));
        return t;
    }
    t.ok = true;
    return t;
}

} // namespace partwise
