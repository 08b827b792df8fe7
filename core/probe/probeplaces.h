#pragma once

// Where the timing probe may write, and whether it may write to a target at all.
//
// The probe rewrites a few small windows of a drive with the bytes already there. That changes
// nothing as long as nobody else writes to those bytes at the same time, so the places must be
// bytes nobody owns right now: free space (outside every partition of the table), partitions
// with nothing mounted, no swap and no holder (LVM, RAID, dm-crypt), or a whole disk with no
// table that nothing holds. The table's view is not enough: the kernel may still know a
// partition the table no longer has (a table changed without telling the kernel), so the
// kernel's own partitions (/sys/block/X/Y/start and size) that are busy are cut out as well.
// The first and last MiB are never touched: they hold the partition tables, the boot code
// legacy boot loaders keep right after the MBR, and the GPT backup. A power cut in the middle
// of a write may tear that sector; what it tears should at worst be free space.
//
// A target is refused, with a sentence saying why, when it is not a block device (an image
// file times its filesystem and the page cache, not a drive), is a partition rather than the
// whole drive (the offsets the probe finds belong to the drive), is read-only, cannot be read,
// is in use as a whole, or has no window left to write to.

#include "device/deviceinfo.h"
#include "probe/sectorprobe.h"
#include "table/disklayout.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace partwise {

// Bytes [start, end) of the drive, and what they are ("free space", "partition 2").
struct ProbeRange
{
    qint64 start = 0;
    qint64 end = 0;
    QString where;
};

// A partition as the kernel knows it, and why it is busy (empty: free).
struct KernelPartition
{
    int number = 0;
    qint64 startBytes = 0;
    qint64 sizeBytes = 0;
    QStringList busy;
};

struct ProbeTarget
{
    bool ok = false;
    QString error; // when !ok
    DeviceInfo device;
    QList<ProbeRange> ranges; // where the probe may write
    QStringList notes;        // what was left out and why
};

// Examines `devicePath` (reads its table and the kernel's view; writes nothing).
ProbeTarget examineProbeTarget(const QString &devicePath);

// The ranges of `layout` the probe may write to, given the kernel's partitions of the drive:
// free space and unmounted partitions, clipped to leave the first and last MiB alone, without
// any busy kernel partition. `notes` receives what was left out and why. Pure: tests call it.
QList<ProbeRange> probeRanges(const DiskLayout &layout, const QList<KernelPartition> &kernel,
                              QStringList *notes);

// `count` windows of `window` bytes, each aligned to `window` from the start of the drive and
// inside one range, spread evenly over all the room the ranges have. Fewer when room is short.
QList<ProbePlace> chooseProbePlaces(const QList<ProbeRange> &ranges, int count, qint64 window);

} // namespace partwise
