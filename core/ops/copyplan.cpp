#include "ops/copyplan.h"

#include "base/humansize.h"
#include "fs/filesystemtools.h"
#include "fs/filesystemuuid.h"
#include "ops/copyboot.h"
#include "ops/copyreferences.h"
#include "ops/copysectorsize.h"
#include "ops/writejournal.h"
#include "table/foreigndisk.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QUuid>

#include <algorithm>

namespace partwise {

namespace {

using Kind = PartitionInfo::Kind;

constexpr qint64 kBiosBootBytes = 1 << 20;
// Rough speeds for the estimate: a disk read and written at once, then read back.
constexpr double kCopyBytesPerSecond = 120e6;
constexpr double kVerifyBytesPerSecond = 250e6;

bool isGpt(const QString &table)
{
    return table == QLatin1String("gpt");
}

QString mib(qint64 bytes)
{
    return humanSize(bytes);
}

void planDiscard(const CopyTargetInfo &target, const CopyOptions &options, CopyPlan *plan)
{
    if (!options.discard) {
        plan->noDiscardReason = QStringLiteral("--no-discard");
        return;
    }
    switch (target.discard.way) {
    case DiscardWay::PunchHoles:
        plan->discard = CopyDiscard::Holes;
        break;
    case DiscardWay::Trim:
        plan->discard = CopyDiscard::Trim;
        plan->discardGranularity = target.discard.granularity;
        break;
    case DiscardWay::None:
        plan->noDiscardReason = target.discard.why;
        break;
    }
}

QString newGuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

// Every id the source has: a copy's new ones may not repeat them.
QStringList sourceIdsOf(const DiskLayout &source, const CopySourceFacts &facts)
{
    QStringList ids = facts.partitionGuids.values();
    ids << facts.diskSignature;
    for (const PartitionInfo &p : source.partitions())
        ids << p.uuid;
    ids.removeAll(QString());
    return ids;
}

// With new identities the disk id is chosen with the plan: the PARTUUIDs of an MBR disk are made
// of it, and the copied files' references name them before the table is written.
QString newDiskId(const QString &table)
{
    if (table == QLatin1String("gpt"))
        return newGuid();
    quint32 id = 0;
    while (id == 0)
        id = QRandomGenerator::system()->generate();
    return QStringLiteral("%1").arg(id, 8, 16, QLatin1Char('0'));
}

// Between sector sizes: each partition's filesystem carries over or is refused, the plan saying
// which rule applied; boot code, which counts in the source's sectors, is not carried.
void judgeSectorSizes(const QList<PartitionInfo> &chosen, const CopySourceFacts &facts,
                      CopyPlan *plan)
{
    for (const PartitionInfo &p : chosen) {
        if (p.isContainer())
            continue;
        const CopySourceFacts::Partition *f = facts.byNumber(p.number);
        const SectorSizeRule rule =
            sectorSizeRule(p.filesystem, f ? f->unitBytes : 0, f ? f->bootSector : QByteArray(),
                           plan->sourceSectorSize, plan->targetSectorSize);
        if (rule.carries)
            plan->notes << QStringLiteral("partition %1 onto %2-byte sectors: %3.")
                               .arg(p.number)
                               .arg(plan->targetSectorSize)
                               .arg(rule.rule);
        else
            plan->refused << QStringLiteral("Partition %1 cannot go onto %2-byte sectors: %3. "
                                            "Copy the others alone (SOURCE:N), or onto a disk "
                                            "of %4-byte sectors.")
                                 .arg(p.number)
                                 .arg(plan->targetSectorSize)
                                 .arg(rule.rule)
                                 .arg(plan->sourceSectorSize);
    }
    // libparted's own code, which loads the active partition, is written with any new MBR.
    const bool loader = facts.mbrBootCode && facts.boot.mbrCode != MbrCode::Generic;
    if (loader || facts.grubInMbrGap || facts.grubBiosBoot)
        plan->bootBreaks << QStringLiteral(
                                "The source's boot code counts in %1-byte sectors and is not "
                                "carried onto %2-byte ones: the copy will not boot by BIOS until "
                                "its boot loader is installed on it again (grub-install, or "
                                "extlinux --install).")
                                .arg(plan->sourceSectorSize)
                                .arg(plan->targetSectorSize);
}

// Two disks of one machine holding filesystems of one UUID: mounts by UUID (fstab, GRUB's
// search) may take either. A copy replacing its source is fine once the source is gone.
void warnOfTwinIdentities(const DiskLayout &source, const CopyTargetInfo &target,
                          const CopyOptions &options, CopyPlan *plan)
{
    if (options.newIds || !target.isBlockDevice || source.device.isImage)
        return;
    QStringList twins;
    for (const CopyPartitionPlan &p : plan->partitions)
        if (!p.uuid.isEmpty())
            twins << QStringLiteral("%1 (partition %2)").arg(p.uuid).arg(p.targetNumber);
    if (!twins.isEmpty())
        plan->notes << QStringLiteral(
                           "Warning: while both disks stay attached, each of these filesystem "
                           "UUIDs is on both, and what mounts by UUID may take either: %1. "
                           "Detach one before the next boot, or copy with --new-ids.")
                           .arg(twins.join(QStringLiteral(", ")));
}

// What the plan says of the discard: the bytes are those the copy does not write, about the
// target less the data (the exact stretches come from the maps when it runs).
QString copyDiscardText(const CopyPlan &plan)
{
    const qint64 unwritten = std::max<qint64>(0, plan.targetSizeBytes - qint64(plan.bytesToCopy));
    switch (plan.discard) {
    case CopyDiscard::Holes:
        return QStringLiteral("about %1 the copy does not write becomes holes in the image "
                              "(--no-discard keeps the bytes)")
            .arg(mib(unwritten));
    case CopyDiscard::Trim:
        return QStringLiteral("about %1 the copy does not write is discarded first (TRIM; "
                              "--no-discard keeps it)")
            .arg(mib(unwritten));
    case CopyDiscard::None:
        break;
    }
    return QStringLiteral("none (%1)").arg(plan.noDiscardReason);
}

} // namespace

QString copyDataName(CopyData data)
{
    switch (data) {
    case CopyData::UsedBlocks:
        return QStringLiteral("used-blocks");
    case CopyData::Whole:
        return QStringLiteral("whole");
    case CopyData::Recreate:
        return QStringLiteral("recreate");
    case CopyData::Shrunk:
        return QStringLiteral("shrink");
    case CopyData::None:
        return QStringLiteral("none");
    }
    return QString();
}

QString copyDiscardName(CopyDiscard discard)
{
    switch (discard) {
    case CopyDiscard::Holes:
        return QStringLiteral("holes");
    case CopyDiscard::Trim:
        return QStringLiteral("trim");
    case CopyDiscard::None:
        break;
    }
    return QStringLiteral("none");
}

bool parseCopyDiscard(const QString &name, CopyDiscard *discard)
{
    for (CopyDiscard d : {CopyDiscard::None, CopyDiscard::Holes, CopyDiscard::Trim})
        if (copyDiscardName(d) == name) {
            *discard = d;
            return true;
        }
    return false;
}

CarriedEntry carriedEntry(const QString &sourceTable, const QString &targetTable,
                          const QStringList &flags, const QString &typeId)
{
    CarriedEntry carried;
    if (sourceTable == targetTable) {
        carried.flags = flags;
        carried.typeId = typeId;
        return carried;
    }
    // Flags mean other things on the other table (MBR's active "boot" is GPT's ESP).
    static const QStringList kept{QStringLiteral("lvm"), QStringLiteral("raid"),
                                  QStringLiteral("esp"), QStringLiteral("bios_grub")};
    for (const QString &flag : flags)
        if (kept.contains(flag))
            carried.flags << flag;
    return carried;
}

const CopyPartitionPlan *CopyPlan::bySourceNumber(int number) const
{
    for (const CopyPartitionPlan &p : partitions)
        if (p.sourceNumber == number)
            return &p;
    return nullptr;
}

const CopySourceFacts::Partition *CopySourceFacts::byNumber(int number) const
{
    for (const Partition &p : partitions)
        if (p.number == number)
            return &p;
    return nullptr;
}

double estimateCopySeconds(quint64 bytesToCopy, bool verify)
{
    return double(bytesToCopy) / kCopyBytesPerSecond +
           (verify ? double(bytesToCopy) / kVerifyBytesPerSecond : 0.0);
}

QString copyJournalPath(const QString &target, const QString &stateDir)
{
    return WriteJournal::defaultPath(target, stateDir) + QStringLiteral(".copy");
}

CopyPlan planCopy(const DiskLayout &source, const CopySourceFacts &facts,
                  const CopyTargetInfo &target, const CopyOptions &options)
{
    CopyPlan plan;
    plan.source = source.device.path;
    plan.target = target.path;
    plan.sourceSectorSize = source.device.topology.logicalSectorSize;
    plan.targetSectorSize = target.sectorSize;
    plan.targetSizeBytes = target.sizeBytes;
    plan.sourceTable = source.tableType;
    plan.targetTable = options.tableType.isEmpty() ? source.tableType : options.tableType;
    plan.grainBytes = options.policy.grainBytes;
    plan.growth = options.growth;
    plan.newIds = options.newIds;
    plan.diskId = options.newIds ? newDiskId(plan.targetTable) : facts.diskSignature;
    plan.refused << facts.busySource << facts.busyTarget;

    if (target.sameAsSource)
        plan.refused << QStringLiteral("The source and the target are the same disk.");
    if (source.tableType.isEmpty())
        plan.refused
            << QStringLiteral(
                   "%1 has no partition table to copy (a filesystem on the whole disk is copied "
                   "with its own tools, not by partwise-cli copy).")
                   .arg(source.device.path);
    if (const QString foreign = foreignDiskRefusal(source); !foreign.isEmpty())
        plan.refused << foreign;
    if (plan.targetTable != QLatin1String("gpt") && plan.targetTable != QLatin1String("msdos"))
        plan.refused << QStringLiteral("The target's table must be gpt or msdos.");
    if (!plan.refused.isEmpty())
        return plan;

    const qint64 sss = plan.sourceSectorSize;
    const qint64 tss = plan.targetSectorSize;
    const bool toGpt = isGpt(plan.targetTable);
    const bool fromGpt = isGpt(plan.sourceTable);

    QList<PartitionInfo> chosen;
    for (const PartitionInfo &p : source.partitions()) {
        if (options.sourcePartition > 0 && p.number != options.sourcePartition)
            continue;
        if (p.kind == Kind::Extended && (toGpt || options.sourcePartition > 0))
            continue; // GPT has no container: logicals become ordinary partitions
        chosen << p;
    }
    if (chosen.isEmpty()) {
        plan.refused
            << (options.sourcePartition > 0
                    ? QStringLiteral("%1 has no partition %2.")
                          .arg(source.device.path)
                          .arg(options.sourcePartition)
                    : QStringLiteral("%1 has no partitions to copy.").arg(source.device.path));
        return plan;
    }
    if (!toGpt && fromGpt && chosen.size() > 4)
        plan.refused
            << QStringLiteral(
                   "An MBR table holds four primary partitions; the source has %1. Keep GPT.")
                   .arg(chosen.size());

    const bool converts = sss != tss;
    if (converts)
        judgeSectorSizes(chosen, facts, &plan);

    // GRUB for BIOS: its core.img follows the copy. Onto GPT from MBR it needs a BIOS boot
    // partition, which the copy adds first.
    // Boot code that loads the active partition means nothing in front of GPT; GRUB's boot.img
    // works there too, given its core.img in a BIOS boot partition.
    plan.copiesBootCode = !converts && facts.mbrBootCode &&
                          (plan.sourceTable == plan.targetTable || facts.grubInMbrGap);
    if (facts.grubInMbrGap && !converts) {
        plan.gapSectors = facts.grubGapLastSector;
        if (toGpt) {
            plan.addsBiosBoot = true;
        } else {
            plan.bootFixes << QStringLiteral("GRUB's core.img (sectors 1–%1) is copied to the same "
                                             "sectors after the MBR.")
                                  .arg(facts.grubGapLastSector);
        }
    }

    CopyPlacementRequest request;
    request.targetSectorSize = tss;
    request.grainBytes = plan.grainBytes;
    request.growth = options.growth;
    request.reservedLeadingBytes = plan.addsBiosBoot ? kBiosBootBytes : 0;
    freshTableUsableRange(plan.targetTable, target.sizeBytes / tss, tss, &request.targetFirstUsable,
                          &request.targetLastUsable);
    for (const PartitionInfo &p : chosen) {
        CopyPlacementPartition cp;
        cp.number = p.number;
        cp.kind = toGpt || options.sourcePartition > 0 || fromGpt ? Kind::Primary : p.kind;
        cp.lengthBytes = p.lengthSectors() * sss;
        const CopySourceFacts::Partition *f = facts.byNumber(p.number);
        if (f) {
            cp.minimumBytes = f->minimumBytes;
            cp.canGrow = f->canGrow;
        }
        request.partitions << cp;
    }
    const CopyPlacement placement = placeCopy(request);
    if (!placement.ok) {
        plan.refused << placement.error;
        for (const CopySourceFacts::Partition &f : facts.partitions)
            if (!f.resizeLimit.isEmpty())
                plan.refused
                    << QStringLiteral("Partition %1: %2.").arg(f.number).arg(f.resizeLimit);
        return plan;
    }
    if (plan.addsBiosBoot) {
        plan.biosBootStart = placement.reservedStart;
        plan.biosBootEnd = placement.reservedEnd;
        plan.bootFixes << QStringLiteral("A BIOS boot partition is added at sectors %1–%2 and "
                                         "GRUB's core.img is moved into "
                                         "it, GRUB's pointers with it.")
                              .arg(plan.biosBootStart)
                              .arg(plan.biosBootEnd);
        plan.bootBreaks << QStringLiteral(
            "GRUB's core.img was built for an MBR table (it names its partition as msdosN): if "
            "the copy stops at a grub rescue prompt, boot it once from a live system and run "
            "`grub-install --target=i386-pc` on it.");
    }

    int logicalNumber = 5;
    for (int i = 0; i < chosen.size(); ++i) {
        const PartitionInfo &p = chosen[i];
        const CopyPlacedPartition &placed = placement.placed[i];
        const CopySourceFacts::Partition *f = facts.byNumber(p.number);
        CopyPartitionPlan cp;
        cp.sourceNumber = p.number;
        cp.kind = request.partitions[i].kind;
        cp.targetNumber = cp.kind == Kind::Logical ? logicalNumber++ : p.number;
        if (!toGpt && fromGpt)
            cp.targetNumber = i + 1;
        if (options.sourcePartition > 0)
            cp.targetNumber = 1;
        cp.filesystem = p.filesystem;
        cp.label = p.label;
        cp.uuid = p.uuid;
        cp.name = p.name;
        const CarriedEntry carried = carriedEntry(plan.sourceTable, plan.targetTable, p.flags,
                                                  facts.typeIds.value(p.number));
        cp.flags = carried.flags;
        cp.typeId = carried.typeId;
        if (plan.sourceTable == plan.targetTable && !options.newIds)
            cp.partitionGuid = facts.partitionGuids.value(p.number);
        else if (options.newIds && plan.targetTable == QLatin1String("gpt"))
            cp.partitionGuid = newGuid(); // chosen now, so references can name it
        if (options.newIds && canChangeFilesystemUuid(p.filesystem) && cp.kind != Kind::Extended)
            cp.newUuid = randomFilesystemUuid(p.filesystem); // likewise, and the plan shows it
        cp.oldStart = p.startSector;
        cp.oldEnd = p.endSector;
        cp.newStart = placed.startSector;
        cp.newEnd = placed.endSector;
        const qint64 oldBytes = p.lengthSectors() * sss;
        const qint64 newBytes = placed.lengthBytes();
        cp.filesystemBytes = f ? f->filesystemBytes : 0;
        const qint64 fsBytes = cp.filesystemBytes > 0 ? cp.filesystemBytes : oldBytes;
        if (p.kind == Kind::Extended && cp.kind == Kind::Extended) {
            cp.data = CopyData::None;
        } else if (p.filesystem == QLatin1String("swap")) {
            cp.data = CopyData::Recreate;
            cp.newFilesystemBytes = newBytes;
        } else if (newBytes < fsBytes) {
            cp.data = CopyData::Shrunk;
            cp.newFilesystemBytes = newBytes;
            cp.bytesToCopy = f && f->hasMap ? f->usedBytes * 2 : quint64(newBytes);
        } else if (f && f->hasMap) {
            cp.data = CopyData::UsedBlocks;
            cp.bytesToCopy = f->usedBytes;
        } else {
            cp.data = CopyData::Whole;
            cp.wholeReason = f && !f->wholeReason.isEmpty()
                                 ? f->wholeReason
                                 : QStringLiteral("no map of the blocks in use");
            cp.bytesToCopy = quint64(std::min(oldBytes, newBytes));
        }
        if (cp.data != CopyData::Shrunk && cp.data != CopyData::Recreate && f && f->canGrow &&
            cp.filesystemBytes > 0 && newBytes > oldBytes && !p.filesystem.isEmpty())
            cp.newFilesystemBytes = newBytes;
        plan.bytesToCopy += cp.bytesToCopy;
        plan.partitions << cp;
        if (const QString why = noCheckReason(p.filesystem); !why.isEmpty())
            plan.notes << QStringLiteral("Partition %1 (%2) is copied but not checked: %3.")
                              .arg(p.number)
                              .arg(p.filesystem, why);
        if (cp.data == CopyData::Whole && !p.filesystem.isEmpty())
            plan.notes << QStringLiteral("Partition %1 (%2) is copied whole: %3.")
                              .arg(p.number)
                              .arg(p.filesystem, cp.wholeReason);
    }
    if (plan.addsBiosBoot) {
        // The BIOS boot partition takes the first number left free: the others keep theirs.
        int n = 1;
        while (std::any_of(plan.partitions.cbegin(), plan.partitions.cend(),
                           [n](const CopyPartitionPlan &cp) { return cp.targetNumber == n; }))
            ++n;
        plan.biosBootNumber = n;
    }
    if (!fromGpt && toGpt && !converts)
        planActivePartitionOnGpt(chosen, facts, &plan);
    if (!converts)
        judgeCopyBoot(facts.boot, &plan);
    plan.bootBreaks.removeDuplicates();
    if (plan.sourceTable != plan.targetTable && !options.newIds)
        plan.notes << QStringLiteral("The %1 table gets a new disk identifier: the source's "
                                     "%2 one has no place in it.")
                          .arg(plan.targetTable, plan.sourceTable);
    if (plan.copiesBootCode && !plan.addsBiosBoot && plan.gapSectors == 0)
        plan.bootFixes << QStringLiteral(
            "The MBR's boot code is copied, and each FAT or NTFS boot sector is told its new "
            "start.");
    if (options.newIds)
        plan.refused << takeCopyIds(options.ids, sourceIdsOf(source, facts), &plan);
    planDiscard(target, options, &plan);
    warnOfTwinIdentities(source, target, options, &plan);
    plan.estimatedSeconds = estimateCopySeconds(plan.bytesToCopy, options.verify);
    return plan;
}

QStringList copyPlanText(const CopyPlan &plan)
{
    QStringList lines;
    lines << QStringLiteral("Copy %1 (%2, %3-byte sectors) onto %4 (%5, %6, new %7 table), "
                            "grain %8:")
                 .arg(plan.source, plan.sourceTable)
                 .arg(plan.sourceSectorSize)
                 .arg(plan.target, mib(plan.targetSizeBytes))
                 .arg(plan.targetSectorSize)
                 .arg(plan.targetTable, mib(plan.grainBytes));
    if (plan.addsBiosBoot)
        lines << QStringLiteral("  BIOS boot partition %1 (new): sectors %2-%3")
                     .arg(plan.biosBootNumber)
                     .arg(plan.biosBootStart)
                     .arg(plan.biosBootEnd);
    for (const CopyPartitionPlan &p : plan.partitions) {
        QString what = copyDataName(p.data);
        if (p.grows())
            what += QStringLiteral(", filesystem grown to %1").arg(mib(p.newFilesystemBytes));
        if (p.shrinks())
            what += QStringLiteral(", filesystem shrunk to %1").arg(mib(p.newFilesystemBytes));
        lines << QStringLiteral("  partition %1 -> %2 (%3%4): sectors %5-%6 -> %7-%8, %9 to copy "
                                "(%10)")
                     .arg(p.sourceNumber)
                     .arg(p.targetNumber)
                     .arg(partitionKindName(p.kind),
                          p.filesystem.isEmpty() ? QString() : QStringLiteral(", ") + p.filesystem)
                     .arg(p.oldStart)
                     .arg(p.oldEnd)
                     .arg(p.newStart)
                     .arg(p.newEnd)
                     .arg(mib(qint64(p.bytesToCopy)), what);
    }
    lines << QStringLiteral("  %1 to copy, about %2 s; identities %3.")
                 .arg(mib(qint64(plan.bytesToCopy)))
                 .arg(qMax(1.0, plan.estimatedSeconds), 0, 'f', 0)
                 .arg(plan.newIds ? QStringLiteral("new (filesystem UUIDs, GUIDs, disk id)")
                                  : QStringLiteral("kept (UUIDs, labels, GUIDs, disk id)"));
    lines << QStringLiteral("  discard: ") + copyDiscardText(plan);
    for (const QString &r : copyReferencePlanText(plan))
        lines << QStringLiteral("  ") + r;
    for (const QString &n : plan.notes)
        lines << QStringLiteral("  note: ") + n;
    for (const QString &b : plan.bootFixes)
        lines << QStringLiteral("  boot: ") + b;
    for (const QString &b : plan.bootBreaks)
        lines << QStringLiteral("  boot breaks: ") + b;
    for (const QString &r : plan.refused)
        lines << QStringLiteral("  refused: ") + r;
    return lines;
}

QString interruptedCopyText(const QString &target)
{
    return QStringLiteral("A copy onto %1 stopped part-way, so it holds no partition table until "
                          "the copy is finished (Drive → Finish Interrupted Copy in the window, "
                          "or partwise-cli resume %1).")
        .arg(target);
}

} // namespace partwise
