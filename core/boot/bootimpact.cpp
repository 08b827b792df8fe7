#include "boot/bootimpact.h"

namespace partwise {

namespace {

QString diskName(const BootInventory &inv)
{
    return inv.disk.isEmpty() ? QStringLiteral("/dev/sdX") : inv.disk;
}

void breaks(BootEffect *e, const QString &what, const QString &repair)
{
    e->kind = BootEffect::Kind::Breaks;
    e->breaks << what;
    if (!repair.isEmpty() && !e->repairs.contains(repair))
        e->repairs << repair;
}

void fixed(BootEffect *e, const QString &what)
{
    if (e->kind == BootEffect::Kind::None)
        e->kind = BootEffect::Kind::Fixed;
    e->fixes << what;
}

void grubEffect(const BootInventory &inv, int number, qint64 oldStart, qint64 newStart,
                qint64 newLength, BootEffect *e)
{
    if (!inv.grubCore)
        return;
    const GrubCoreInfo &core = *inv.grubCore;
    const QString grubInstall = QStringLiteral("grub-install %1").arg(diskName(inv));
    if (core.partition == number && core.place == GrubCoreInfo::Place::BiosBootPartition) {
        fixed(e, QStringLiteral("GRUB's core.img moves with BIOS boot partition %1: Partwise "
                                "points boot.img in the MBR at sector %2 (was %3) and core.img's "
                                "block list at its new sectors.")
                     .arg(number)
                     .arg(qint64(core.sector) - oldStart + newStart)
                     .arg(core.sector));
        return;
    }
    if (core.partition == number && core.place == GrubCoreInfo::Place::Partition) {
        breaks(e,
               QStringLiteral("GRUB's boot.img in the MBR loads core.img from absolute sector %1 "
                              "inside partition %2; after the move those sectors hold other data "
                              "and the disk no longer boots.")
                   .arg(core.sector)
                   .arg(number),
               grubInstall);
        return;
    }
    // core.img outside the partition that moves: only overwriting it matters.
    if (core.place != GrubCoreInfo::Place::Missing && core.partition != number &&
        qint64(core.sector) <= newStart + newLength - 1 && qint64(core.lastSector) >= newStart)
        breaks(e,
               QStringLiteral("Partition %1's new place (from sector %2) overwrites GRUB's "
                              "core.img in sectors %3–%4, and the disk no longer boots.")
                   .arg(number)
                   .arg(newStart)
                   .arg(core.sector)
                   .arg(core.lastSector),
               grubInstall);
}

void bcdEffect(const BootInventory &inv, int number, qint64 oldStart, qint64 newStart,
               BootEffect *e)
{
    if (inv.tableType != QLatin1String("msdos"))
        return;
    const qint64 oldOffset = oldStart * inv.sectorSize;
    const QString bcdboot = QStringLiteral(
        "bcdboot C:\\Windows (from Windows' recovery console: start from the Windows "
        "installation medium, Repair your computer, Command Prompt; C: being the Windows "
        "partition there)");
    bool named = false;
    for (const PartitionBoot &pb : inv.partitions) {
        if (!pb.bcd)
            continue;
        if (!pb.bcd->read) {
            if (pb.bcd->found && pb.number == number)
                breaks(e,
                       QStringLiteral("Partition %1 holds a Windows boot menu (\\Boot\\BCD) that "
                                      "could not be read (%2); it names partitions by their byte "
                                      "offset, so Windows may no longer boot after the move.")
                           .arg(number)
                           .arg(pb.bcd->error),
                       bcdboot);
            continue;
        }
        for (const BcdPartitionDevice &d : pb.bcd->devices) {
            const QString signature =
                QStringLiteral("%1").arg(d.diskSignature, 8, 16, QLatin1Char('0'));
            if (d.partitionOffsetBytes != oldOffset ||
                (!inv.diskSignature.isEmpty() && signature != inv.diskSignature) || named)
                continue;
            named = true;
            breaks(e,
                   QStringLiteral("Windows' boot menu (\\Boot\\BCD on partition %1) finds "
                                  "partition %2 by its byte offset %3; after the move it starts "
                                  "at byte %4, and Windows Boot Manager stops with error "
                                  "0xc000000e.")
                       .arg(pb.number)
                       .arg(number)
                       .arg(oldOffset)
                       .arg(newStart * inv.sectorSize),
                   bcdboot);
        }
    }
}

void firmwareEffect(const BootInventory &inv, int number, qint64 oldStart, BootEffect *e)
{
    for (const DiskFirmwareEntry &f : inv.firmwareEntries) {
        if (f.partition != number || f.entry.startSector != oldStart)
            continue;
        breaks(e,
               QStringLiteral("This machine's firmware entry %1 (\"%2\") names the ESP by its "
                              "start %3 and size; after the move firmware that checks them no "
                              "longer finds %4 (the removable path \\EFI\\BOOT\\BOOTX64.EFI, if "
                              "present, still boots).")
                   .arg(f.entry.id, f.entry.label)
                   .arg(oldStart)
                   .arg(f.entry.path.isEmpty() ? QStringLiteral("its loader") : f.entry.path),
               firmwareEntryRepair(f.entry, diskName(inv), number));
    }
}

} // namespace

QString bootEffectKindName(BootEffect::Kind kind)
{
    switch (kind) {
    case BootEffect::Kind::None:
        return QStringLiteral("none");
    case BootEffect::Kind::Fixed:
        return QStringLiteral("fixed");
    case BootEffect::Kind::Breaks:
        return QStringLiteral("breaks");
    }
    return {};
}

BootEffect bootEffectOfMove(const BootInventory &inv, int number, qint64 oldStart, qint64 newStart,
                            qint64 newLength)
{
    BootEffect e;
    if (oldStart == newStart)
        return e;
    grubEffect(inv, number, oldStart, newStart, newLength, &e);
    if (const PartitionBoot *pb = inv.partition(number)) {
        if (pb->recordedStart && *pb->recordedStart == oldStart)
            // describeBootEffect() names the partition before this.
            fixed(&e, QStringLiteral("its boot sector records its start (%1); Partwise "
                                     "rewrites it to %2.")
                          .arg(oldStart)
                          .arg(newStart));
        if (pb->loader == PartitionLoader::Grub)
            breaks(&e,
                   QStringLiteral("GRUB in partition %1's boot sector loads core.img by "
                                  "absolute sectors; after the move it loads the wrong ones.")
                       .arg(number),
                   QStringLiteral("grub-install --force PARTITION (the node of partition %1 of "
                                  "%2)")
                       .arg(number)
                       .arg(diskName(inv)));
        if (pb->esp && inv.firmwareRead)
            firmwareEffect(inv, number, oldStart, &e);
    }
    bcdEffect(inv, number, oldStart, newStart, &e);
    return e;
}

void describeBootEffect(const BootEffect &effect, int number, QStringList *fixes,
                        QStringList *breaks)
{
    for (const QString &fix : effect.fixes)
        *fixes << QStringLiteral("partition %1: %2").arg(number).arg(fix);
    if (effect.kind != BootEffect::Kind::Breaks)
        return;
    QString line =
        QStringLiteral("partition %1: %2").arg(number).arg(effect.breaks.join(QLatin1Char(' ')));
    if (!effect.repairs.isEmpty())
        line += QStringLiteral(" To repair it afterwards: %1")
                    .arg(effect.repairs.join(QStringLiteral(" ; ")));
    *breaks << line;
}

} // namespace partwise
