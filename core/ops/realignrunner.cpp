#include "ops/realignrunner.h"

#include "device/automountinhibitor.h"
#include "device/diskwritelock.h"
#include "device/drivehealth.h"
#include "device/loopattachment.h"
#include "fs/filesystemresize.h"
#include "fs/usedblocks.h"
#include "layer/layerreader.h"
#include "ops/realignexecution.h"
#include "ops/realignlayernotes.h"
#include "ops/writejournal.h"
#include "ops/writepreflight.h"
#include "table/diskreader.h"

#include <QFile>
#include <QSet>

#include <algorithm>

namespace partwise {

namespace {

// What a typical disk sustains moving data (a read and a write per byte); only for estimates.
constexpr double kAssumedBytesPerSecond = 100.0 * (1 << 20);

} // namespace

double estimateRealignSeconds(const RealignPlan &plan)
{
    return double(plan.totalBytes()) / kAssumedBytesPerSecond;
}

PreparedRealign prepareRealignment(const QString &target, const RealignOptions &options,
                                   const RealignRequest &request)
{
    PreparedRealign prepared;
    DiskReadOptions ro;
    ro.forcedSectorSize = options.forcedSectorSize;
    const DiskReadResult read = readDisk(target, ro);
    if (!read.ok) {
        prepared.error = read.error;
        return prepared;
    }
    prepared.layout = read.layout;
    if (read.layout.tableType.isEmpty()) {
        const QString fs = read.layout.wholeDiskFilesystemName();
        prepared.error =
            fs.isEmpty()
                ? QStringLiteral("%1 has no partition table, so there is nothing to realign.")
                      .arg(target)
                : QStringLiteral("%1 has no partition table: the whole disk holds %2, so there is "
                                 "no partition to realign; nothing was changed.")
                      .arg(target, fs);
        return prepared;
    }
    for (int n : request.partitions)
        if (!read.layout.partitionByNumber(n)) {
            prepared.error = QStringLiteral("%1 has no partition %2.").arg(target).arg(n);
            return prepared;
        }
    RealignRequest asked = request;
    // Only the ways this session can carry out are offered: a filesystem's tool shrinks it
    // through a device node, and inside an image that is a loop device, which needs root.
    const bool shrinkHere = !read.layout.device.isImage || loopDevicesAvailable();
    asked.canShrink = [shrinkHere](const QString &fs) {
        return shrinkHere ? filesystemCanShrink(fs) : fs.isEmpty() || fs == QLatin1String("swap");
    };
    // The plan prices each way in the bytes it will really copy: a filesystem's used blocks.
    const DiskLayout &layout = read.layout;
    const qint64 ss = layout.device.topology.logicalSectorSize;
    QMap<int, QString> &whole = prepared.copiedWhole;
    asked.bytesInUse = [&target, ss, &whole](const PartitionInfo &p) -> qint64 {
        QString why;
        const auto used = usedExtentsSupported(p.filesystem)
                              ? usedExtents(target, p.startSector * ss, p.lengthSectors() * ss,
                                            p.filesystem, &why)
                              : std::nullopt;
        if (used)
            return qint64(extentBytes(*used));
        whole.insert(
            p.number,
            !why.isEmpty() ? why
            : p.filesystem.isEmpty()
                ? QStringLiteral("no filesystem was found")
                : QStringLiteral("Partwise has no map of the blocks %1 uses").arg(p.filesystem));
        return -1;
    };
    prepared.plan = planRealignment(
        layout, resolveAlignmentGeometry(layout.device.topology, options.policy), asked);
    if (!layout.device.isImage)
        prepared.driveHealth = judgeDriveHealth(readDriveReport(target));
    DiskLayout withLayers = layout;
    readLayers(&withLayers);
    prepared.layerNotes = realignLayerNotes(withLayers, prepared.plan);
    const QList<PartitionInfo> partitions = layout.partitions();
    if (!shrinkHere &&
        std::any_of(partitions.cbegin(), partitions.cend(), [](const PartitionInfo &p) {
            return !p.filesystem.isEmpty() && p.filesystem != QLatin1String("swap") &&
                   filesystemCanShrink(p.filesystem);
        }))
        prepared.layerNotes << QStringLiteral(
            "Shrinking a filesystem inside an image needs a loop device, which only an "
            "administrator can create, so this plan moves partitions instead of shrinking one.");
    prepared.request = request;
    prepared.journalPath = options.journalPathFor(target);
    prepared.journal = move::journalDurability(prepared.journalPath);
    prepared.ok = true;
    return prepared;
}

QString RealignOptions::journalPathFor(const QString &target) const
{
    return journalPath.isEmpty() ? WriteJournal::defaultPath(target, journalFolder) : journalPath;
}

namespace {

// The way after Shrink for partition `number` in `plan`, if it had one.
std::optional<RealignWay> nextWay(const RealignPlan &plan, int number)
{
    for (const RealignChoice &c : plan.choices)
        if (c.number == number)
            for (const RealignOption &o : c.options)
                if (o.way != RealignWay::Shrink)
                    return o.way;
    return std::nullopt;
}

// `checked`: partitions whose filesystems passed their check already (an earlier try).
RealignResult runPlan(const QString &target, const PreparedRealign &prepared,
                      const RealignOptions &options, const RealignCallbacks &callbacks,
                      QSet<int> *checked);

} // namespace

// Whether a filesystem can shrink to a given size is only known for sure by its tool (libparted
// keeps FAT cluster sizes, the kernel keeps btrfs above 256 MiB, ...). When the tool refuses
// before anything was changed, the partition takes its next way, and the log says so.
RealignResult runRealignment(const QString &target, const PreparedRealign &prepared,
                             const RealignOptions &options, const RealignCallbacks &callbacks)
{
    // No desktop automounter may mount a partition of the disk while it is written.
    const AutomountInhibitor noAutomount(target);
    const DiskWriteLock lock(target); // no other job writes beside this one
    if (!lock.ok()) {
        RealignResult refused;
        refused.error = lock.error();
        return refused;
    }
    QSet<int> checked; // a second try only checks the neighbours it adds
    RealignResult result = runPlan(target, prepared, options, callbacks, &checked);
    PreparedRealign again = prepared;
    while (!result.ok && result.shrinkRefused > 0) {
        const std::optional<RealignWay> way = nextWay(again.plan, result.shrinkRefused);
        if (!way)
            return result;
        if (callbacks.log)
            callbacks.log(QStringLiteral("%1 Planning partition %2 again, the next way: %3.")
                              .arg(result.error)
                              .arg(result.shrinkRefused)
                              .arg(realignWayName(*way)));
        RealignRequest request = again.request;
        request.ways[result.shrinkRefused] = *way;
        again = prepareRealignment(target, options, request);
        if (!again.ok) {
            result.error = again.error;
            return result;
        }
        result = runPlan(target, again, options, callbacks, &checked);
    }
    return result;
}

namespace {

RealignResult runPlan(const QString &target, const PreparedRealign &prepared,
                      const RealignOptions &options, const RealignCallbacks &callbacks,
                      QSet<int> *checked)
{
    RealignResult result;
    result.journalPath = options.journalPathFor(target);
    WriteRequest request;
    request.target = target;
    request.layout = prepared.layout;
    for (const PartitionMove &m : prepared.plan.moves)
        request.partitions << m.number;
    request.checks = prepared.plan.moves;
    request.journalPath = result.journalPath;
    request.backupRoot = options.backupRoot;
    request.verb = QStringLiteral("move");
    if (prepared.plan.moves.isEmpty() && !QFile::exists(result.journalPath)) {
        result.ok = true; // nothing to write
        return result;
    }
    const WritePreflight preflight = prepareWrite(request, checked, callbacks.log);
    if (!preflight.ok()) {
        result.error = preflight.error;
        result.resumable = preflight.resumable;
        return result;
    }
    WriteJournal journal;
    journal.target = target;
    journal.sectorSize = prepared.layout.device.topology.logicalSectorSize;
    journal.verify = options.verify;
    journal.backupFolder = preflight.backup.folder;
    journal.moves = prepared.plan.moves;
    for (int i = 0; i < journal.moves.size(); ++i)
        journal.phases << WriteJournal::Phase::Pending;
    if (!journal.save(result.journalPath, &result.error))
        return result;
    return runRealignmentJournal(journal, result.journalPath, callbacks);
}

} // namespace

} // namespace partwise
