#include "ops/realignrunner.h"

#include "boot/bootimpact.h"
#include "device/automountinhibitor.h"
#include "device/diskidentity.h"
#include "device/diskwritelock.h"
#include "device/drivehealth.h"
#include "device/loopattachment.h"
#include "fs/filesystemtools.h"
#include "fs/resizelimit.h"
#include "fs/sessionabilities.h"
#include "fs/usedblocks.h"
#include "layer/layerreader.h"
#include "move/redorecord.h"
#include "ops/physicalvolumestep.h"
#include "ops/realignexecution.h"
#include "ops/realignlayernotes.h"
#include "ops/writejournal.h"
#include "ops/writepreflight.h"
#include "table/diskreader.h"
#include "table/foreigndisk.h"

#include <QFile>
#include <QSet>

#include <algorithm>

namespace partwise {

namespace {

// What a typical disk sustains moving data (a read and a write per byte); only for estimates.
constexpr double kAssumedBytesPerSecond = 100.0 * (1 << 20);

QString nextWayText(const RealignPlan &plan, const NextWay &next)
{
    for (const RealignChoice &c : plan.choices)
        if (c.number == next.number)
            for (const RealignOption &o : c.options)
                if (o.way == next.way)
                    return o.describe();
    return QString();
}

QString notShrunkNote(const QString &why)
{
    return why + (why.endsWith(QLatin1Char('.')) ? QString() : QStringLiteral(".")) +
           QStringLiteral(" No plan here shrinks it.");
}

} // namespace

double estimateRealignSeconds(const RealignPlan &plan)
{
    return double(plan.totalBytes()) / kAssumedBytesPerSecond;
}

namespace {

// Each move's effect on booting, from what boots from the disk now; firmware entries are
// this machine's, so only for its own disks.
void sayWhatBootingNeeds(PreparedRealign *prepared)
{
    if (prepared->plan.moves.isEmpty())
        return;
    BootReadOptions options;
    std::optional<FirmwareEntries> firmware;
    if (!prepared->layout.device.isImage) {
        firmware = readFirmwareEntries();
        options.firmware = &*firmware;
    }
    const BootInventory inventory = readBootInventory(prepared->layout, options);
    for (const PartitionMove &m : prepared->plan.moves) {
        if (m.tableOnly())
            continue;
        describeBootEffect(
            bootEffectOfMove(inventory, m.number, m.oldStart, m.newStart, m.newLength()), m.number,
            &prepared->bootFixes, &prepared->bootBreaks);
    }
    prepared->layerNotes << inventory.notes;
}

// Each move of a filesystem no read-only check can look at first.
void sayWhatGoesUnchecked(PreparedRealign *prepared)
{
    for (const PartitionMove &m : prepared->plan.moves) {
        const QString why = noCheckReason(m.filesystem);
        if (m.tableOnly() || m.recreateSwap || why.isEmpty())
            continue;
        prepared->uncheckedPartitions << m.number;
        prepared->unchecked << QStringLiteral("partition %1 (%2): %3, so it moves unchecked only "
                                              "with --accept-unchecked.")
                                   .arg(m.number)
                                   .arg(m.filesystem, why);
    }
}

} // namespace

PreparedRealign prepareRealignment(const QString &target, const RealignOptions &options,
                                   const RealignRequest &request)
{
    PreparedRealign prepared;
    auto disk = std::make_shared<OpenDisk>();
    if (!disk->open(target, &prepared.error))
        return prepared;
    DiskReadOptions ro;
    ro.forcedSectorSize = options.forcedSectorSize;
    const DiskReadResult read = readDisk(*disk, ro);
    if (!read.ok) {
        prepared.error = read.error;
        return prepared;
    }
    prepared.planned.disk = std::move(disk);
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
    if (const QString foreign = foreignDiskRefusal(read.layout); !foreign.isEmpty()) {
        prepared.error = foreign;
        return prepared;
    }
    for (int n : request.partitions)
        if (!read.layout.partitionByNumber(n)) {
            prepared.error = QStringLiteral("%1 has no partition %2.").arg(target).arg(n);
            return prepared;
        }
    RealignRequest asked = request;
    // Only the ways this session can carry out are offered (fs/sessionabilities.h); the plan
    // says once per filesystem why a shrink was not.
    const FilesystemPlace place =
        read.layout.device.isImage ? FilesystemPlace::Image : FilesystemPlace::Disk;
    QMap<QString, QString> notShrunk; // filesystem (or partition number) → why not
    const qint64 sectorBytes = read.layout.device.topology.logicalSectorSize;
    asked.canShrink = [place, &notShrunk, &target, sectorBytes, &read](const PartitionInfo &p,
                                                                       qint64 newBytes) {
        if (const QString why = whyCannotShrinkHere(p.filesystem, newBytes, place);
            !why.isEmpty()) {
            notShrunk.insert(p.filesystem, why);
            return false;
        }
        // A physical volume shrinks only while its logical volumes' extents stay inside it.
        if (const QString pv = isPhysicalVolume(p.filesystem)
                                   ? physicalVolumeShrinkRefusal(read.layout, p, newBytes)
                                   : QString();
            !pv.isEmpty()) {
            notShrunk.insert(QString::number(p.number),
                             QStringLiteral("partition %1: %2").arg(p.number).arg(pv));
            return false;
        }
        // What this filesystem itself allows (a FAT12), said per partition.
        const QString limit = resizeLimitOf({target, p.startSector * sectorBytes, true},
                                            p.lengthSectors() * sectorBytes, p.filesystem);
        if (!limit.isEmpty())
            notShrunk.insert(QString::number(p.number),
                             QStringLiteral("partition %1: %2").arg(p.number).arg(limit));
        return limit.isEmpty();
    };
    // The plan prices each way in the bytes it will really copy: a filesystem's used blocks.
    const DiskLayout &layout = read.layout;
    const qint64 ss = layout.device.topology.logicalSectorSize;
    QMap<int, QString> &whole = prepared.copiedWhole;
    // Held from before the maps are read; not claimed, since the run checks and writes it.
    prepared.planned.hold = SourceHold::take(target, SourceHold::Claim::None);
    PlannedMaps &planned = prepared.planned;
    asked.bytesInUse = [&target, ss, &whole, &options, &planned](const PartitionInfo &p) -> qint64 {
        QString why;
        MapProgress progress;
        if (options.mapProgress)
            progress = [&options, &p](const QString &step, double fraction) {
                options.mapProgress(p.number, step, fraction);
            };
        auto used = usedExtentsSupported(p.filesystem)
                        ? usedExtents(target, p.startSector * ss, p.lengthSectors() * ss,
                                      p.filesystem, &why, progress)
                        : std::nullopt;
        if (used) {
            const auto bytes = qint64(extentBytes(*used));
            if (planned.hold)
                planned.maps.insert(p.number,
                                    {p.startSector * ss, p.lengthSectors() * ss, std::move(*used)});
            return bytes;
        }
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
    sayWhatBootingNeeds(&prepared);
    sayWhatGoesUnchecked(&prepared);
    DiskLayout withLayers = layout;
    readLayers(&withLayers);
    prepared.layerNotes = realignLayerNotes(withLayers, prepared.plan);
    for (const QString &why : std::as_const(notShrunk))
        if (!prepared.layerNotes.contains(notShrunkNote(why)))
            prepared.layerNotes << notShrunkNote(why);
    prepared.request = request;
    if (!prepared.plan.moves.isEmpty())
        prepared.discard = planRealignDiscard(target, layout, prepared.plan.moves, options.discard);
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

// `checked`: partitions whose filesystems passed their check already.
RealignResult runPlan(const QString &target, const PreparedRealign &prepared,
                      const RealignOptions &options, const RealignCallbacks &callbacks,
                      QSet<int> *checked);

} // namespace

// Whether a filesystem can shrink to a given size is only known for sure by its tool (libparted
// keeps FAT cluster sizes, ...). When the tool refuses before anything was written, the job
// stops there: the plan a person approved is the plan that runs, and the next one is theirs to
// approve too. The result names the way to take instead (`nextWay`).
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
    if (!prepared.unchecked.isEmpty() && !options.acceptUnchecked) {
        RealignResult refused;
        refused.error = QStringLiteral("Nothing was changed: %1")
                            .arg(prepared.unchecked.join(QLatin1Char(' ')));
        return refused;
    }
    // Accepted unchecked: the check before the move is not asked for.
    QSet<int> checked(prepared.uncheckedPartitions.cbegin(), prepared.uncheckedPartitions.cend());
    RealignResult result = runPlan(target, prepared, options, callbacks, &checked);
    if (!result.ok && result.shrinkRefused > 0)
        if (const std::optional<NextWay> next =
                nextWayWithoutShrink(prepared.plan, result.shrinkRefused))
            result.error += QStringLiteral(" The next way for partition %1 is %2: %3.")
                                .arg(next->number)
                                .arg(realignWayName(next->way), nextWayText(prepared.plan, *next));
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
    journal.diskIdentity = diskIdentityOf(target);
    journal.sectorSize = prepared.layout.device.topology.logicalSectorSize;
    journal.verify = options.verify;
    journal.backupFolder = preflight.backup.folder;
    journal.moves = prepared.plan.moves;
    journal.discard = prepared.discard.way;
    for (int i = 0; i < journal.moves.size(); ++i)
        journal.phases << WriteJournal::Phase::Pending;
    // Records beside a journal that is gone (deleted by hand) belong to no job: never this one's.
    move::removeRedoRecordsOf(result.journalPath);
    if (!journal.save(result.journalPath, &result.error))
        return result;
    return runRealignmentJournal(journal, result.journalPath, callbacks, &prepared.planned);
}

} // namespace

} // namespace partwise
