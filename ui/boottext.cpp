#include "boottext.h"

#include <QStringList>

using namespace partwise;

namespace {

bool coreIn(const BootInventory &boot, int number)
{
    return boot.grubCore && boot.grubCore->partition == number &&
           boot.grubCore->place != GrubCoreInfo::Place::Missing;
}

} // namespace

QString BootText::mbrCode(const BootInventory &boot)
{
    switch (boot.mbrCode) {
    case MbrCode::None:
    case MbrCode::Empty:
        return QString(); // nothing boots through the MBR
    case MbrCode::Grub:
        break;
    case MbrCode::GrubLegacy:
        return tr("GRUB Legacy (0.9x), loading its stage 2 from a fixed sector");
    case MbrCode::Syslinux:
        return tr("syslinux, which starts the active partition");
    case MbrCode::WindowsNt:
        return tr("Windows (DOS to XP), which starts the active partition");
    case MbrCode::WindowsVista:
        return tr("Windows (Vista and later), which starts the active partition");
    case MbrCode::Generic:
        return tr("the generic code libparted and Partwise write with a new MBR table, which "
                  "starts the active partition");
    case MbrCode::Unknown:
        return tr("code Partwise does not recognise");
    }
    if (!boot.grubCore)
        return tr("GRUB 2");
    const GrubCoreInfo &core = *boot.grubCore;
    switch (core.place) {
    case GrubCoreInfo::Place::MbrGap:
        return tr("GRUB 2 → core.img at sector %1, in the gap before the first partition")
            .arg(core.sector);
    case GrubCoreInfo::Place::BiosBootPartition:
        return tr("GRUB 2 → core.img at sector %1, in BIOS boot partition %2")
            .arg(core.sector)
            .arg(core.partition);
    case GrubCoreInfo::Place::Partition:
        return tr("GRUB 2 → core.img at sector %1, inside partition %2")
            .arg(core.sector)
            .arg(core.partition);
    case GrubCoreInfo::Place::Missing:
        break;
    }
    return tr("GRUB 2 → sector %1, where no core.img is found: it does not boot").arg(core.sector);
}

QString BootText::biosBoot(const BootInventory &boot)
{
    if (boot.biosBootPartition == 0)
        return QString();
    return coreIn(boot, boot.biosBootPartition)
               ? tr("partition %1, holding GRUB's core.img").arg(boot.biosBootPartition)
               : tr("partition %1").arg(boot.biosBootPartition);
}

QString BootText::esps(const BootInventory &boot)
{
    QStringList numbers;
    for (int n : boot.espPartitions)
        numbers << QString::number(n);
    return numbers.isEmpty() ? QString()
                             : tr("partition %1").arg(numbers.join(QStringLiteral(", ")));
}

QString BootText::firmwareEntries(const BootInventory &boot)
{
    QStringList lines;
    for (const DiskFirmwareEntry &f : boot.firmwareEntries) {
        //: %1 an entry such as Boot0001, %2 its label, %3 a partition number.
        QString line = tr("%1 “%2” → partition %3").arg(f.entry.id, f.entry.label).arg(f.partition);
        if (!f.entry.path.isEmpty())
            line += QStringLiteral(" (%1)").arg(f.entry.path);
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

QString BootText::partition(const BootInventory &boot, const PartitionBoot &pb)
{
    if (pb.isEmpty())
        return QString();
    QStringList parts;
    switch (pb.loader) {
    case PartitionLoader::None:
        break;
    case PartitionLoader::Grub:
        parts << (pb.grubCoreSector
                      ? tr("GRUB 2 in its boot sector, loading core.img from sector %1")
                            .arg(*pb.grubCoreSector)
                      : tr("GRUB 2 in its boot sector"));
        break;
    case PartitionLoader::Syslinux:
        parts << tr("%1 in its boot sector").arg(pb.loaderName);
        break;
    case PartitionLoader::Ntldr:
        parts << tr("Windows NTLDR (2000, XP) in its boot sector");
        break;
    case PartitionLoader::Bootmgr:
        parts << tr("Windows BOOTMGR (Vista and later) in its boot sector");
        break;
    }
    if (pb.esp)
        parts << tr("EFI system partition");
    if (pb.biosBoot)
        parts << (coreIn(boot, pb.number) ? tr("BIOS boot partition holding GRUB's core.img")
                                          : tr("BIOS boot partition"));
    if (pb.loader != PartitionLoader::None && pb.recordedStart)
        parts << tr("records its start as sector %1").arg(*pb.recordedStart);
    if (pb.bcd && pb.bcd->read) {
        QStringList offsets;
        for (const BcdPartitionDevice &d : pb.bcd->devices)
            if (!offsets.contains(QString::number(d.partitionOffsetBytes)))
                offsets << QString::number(d.partitionOffsetBytes);
        parts << tr("its \\Boot\\BCD names partitions at bytes %1")
                     .arg(offsets.isEmpty() ? tr("none") : offsets.join(QStringLiteral(", ")));
    } else if (pb.bcd && pb.bcd->found) {
        parts << tr("its \\Boot\\BCD could not be read");
    }
    for (const DiskFirmwareEntry &f : boot.firmwareEntries)
        if (f.partition == pb.number)
            parts << tr("firmware entry %1 names it").arg(f.entry.id);
    return parts.join(QStringLiteral("; "));
}
