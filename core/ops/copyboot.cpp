#include "ops/copyboot.h"

#include "boot/bootimpact.h"

namespace partwise {

namespace {

// GRUB's pointers follow a BIOS boot partition only where the copy's table marks one (GPT): an
// MBR table has none, so nothing on the copy says where core.img went.
bool biosBootLosesItsMark(const BootInventory &inventory, const CopyPlan &plan, int number)
{
    return inventory.biosBootPartition == number && inventory.grubCore &&
           inventory.grubCore->place == GrubCoreInfo::Place::BiosBootPartition &&
           plan.targetTable != QLatin1String("gpt");
}

QString lostBiosBoot(const BootInventory &inventory, int number)
{
    return QStringLiteral("partition %1: GRUB's core.img lives in this BIOS boot partition, which "
                          "an MBR table cannot mark, so Partwise cannot point boot.img at its new "
                          "place and the copy does not boot by BIOS. Keep the GPT table, or "
                          "repair it afterwards: grub-install %2 (the copy)")
        .arg(number)
        .arg(inventory.disk.isEmpty() ? QStringLiteral("/dev/sdX") : inventory.disk);
}

} // namespace

void judgeCopyBoot(const BootInventory &source, CopyPlan *plan)
{
    // The repairs run on the copy, so they name it.
    BootInventory inventory = source;
    inventory.disk = plan->target;
    bool moved = false;
    for (const CopyPartitionPlan &p : plan->partitions) {
        if (p.data == CopyData::None || p.newStart == p.oldStart)
            continue;
        moved = true;
        if (biosBootLosesItsMark(inventory, *plan, p.sourceNumber)) {
            plan->bootBreaks << lostBiosBoot(inventory, p.sourceNumber);
            continue;
        }
        const BootEffect effect = bootEffectOfMove(inventory, p.sourceNumber, p.oldStart,
                                                   p.newStart, p.newEnd - p.newStart + 1);
        describeBootEffect(effect, p.sourceNumber, &plan->bootFixes, &plan->bootBreaks);
    }
    if (moved)
        plan->notes << source.notes;
}

void planActivePartitionOnGpt(const QList<PartitionInfo> &chosen, const CopySourceFacts &facts,
                              CopyPlan *plan)
{
    for (const PartitionInfo &p : chosen) {
        if (!p.flags.contains(QStringLiteral("boot")) || facts.grubInMbrGap || !facts.mbrBootCode)
            continue;
        const PartitionBoot *boot = facts.boot.partition(p.number);
        const bool syslinux = facts.boot.mbrCode == MbrCode::Syslinux && boot &&
                              boot->loader == PartitionLoader::Syslinux;
        if (syslinux && facts.gptMbrInstalled) {
            plan->syslinuxGptMbr = true;
            for (CopyPartitionPlan &cp : plan->partitions)
                if (cp.sourceNumber == p.number &&
                    !cp.flags.contains(QStringLiteral("legacy_boot")))
                    cp.flags << QStringLiteral("legacy_boot");
            plan->bootFixes << QStringLiteral(
                                   "partition %1: the MBR gets syslinux's gptmbr.bin (%2), and the "
                                   "partition GPT's Legacy BIOS Bootable attribute, which "
                                   "gptmbr.bin boots as mbr.bin booted the active partition.")
                                   .arg(p.number)
                                   .arg(QLatin1String(kSyslinuxGptMbr));
            continue;
        }
        plan->bootBreaks
            << (syslinux ? QStringLiteral("The MBR's syslinux code loads the active partition, "
                                          "which GPT does not have, and its GPT code %1 is not "
                                          "installed: the copy will not boot by BIOS. Install "
                                          "syslinux-common, or keep the MBR table.")
                               .arg(QLatin1String(kSyslinuxGptMbr))
                         : QStringLiteral("The MBR's boot code loads the active partition, which "
                                          "GPT does not have: the copy will not boot by BIOS. "
                                          "Keep the MBR table to keep it booting."));
    }
}

QString copyBootRefusal(const CopyPlan &plan, bool accepted)
{
    if (plan.bootBreaks.isEmpty() || accepted)
        return {};
    return QStringLiteral("This copy will not boot as its source does (\"boot breaks\" in the "
                          "plan), and that was not accepted: %1 Nothing was written. Copy again "
                          "with --accept-boot-change to copy anyway, then repair it as shown.")
        .arg(plan.bootBreaks.join(QLatin1Char(' ')));
}

} // namespace partwise
