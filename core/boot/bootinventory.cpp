#include "boot/bootinventory.h"

#include "boot/partitionentries.h"
#include "table/foreigndisk.h"

#include <QtEndian>

#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

constexpr qint64 kHiddenSectorsOffset = 0x1C;

QByteArray readBytes(int fd, qint64 offset, int length)
{
    QByteArray b(length, '\0');
    if (::pread(fd, b.data(), size_t(length), off_t(offset)) != length)
        return {};
    return b;
}

// Filesystems whose boot sector records the partition's start at 0x1C (FAT's and NTFS's BPB,
// and the BPB syslinux/extlinux keep in theirs).
bool recordsStart(const QString &filesystem, PartitionLoader loader)
{
    return filesystem == QLatin1String("vfat") || filesystem == QLatin1String("ntfs") ||
           loader == PartitionLoader::Syslinux;
}

GrubCoreInfo locateGrubCore(int fd, quint64 sector, const DiskLayout &layout,
                            const PartitionEntries &entries)
{
    GrubCoreInfo info;
    info.sector = sector;
    const QByteArray diskboot = readBytes(fd, qint64(sector) * 512, 512);
    const auto blocks = readGrubBlockList(diskboot);
    if (!blocks)
        return info; // Missing
    info.blocks = *blocks;
    info.lastSector = sector;
    for (const GrubBlock &b : *blocks)
        info.lastSector = std::max(info.lastSector, b.start + b.sectors - 1);
    const qint64 ss = layout.device.topology.logicalSectorSize;
    const qint64 byteAt = qint64(sector) * 512;
    info.place = GrubCoreInfo::Place::MbrGap;
    for (const PartitionInfo &p : layout.partitions()) {
        if (p.isContainer() || byteAt < p.startSector * ss || byteAt > p.endSector * ss + ss - 1)
            continue;
        const PartitionEntry *e = entries.byNumber(p.number);
        info.partition = p.number;
        info.place = e && e->isBiosBoot() ? GrubCoreInfo::Place::BiosBootPartition
                                          : GrubCoreInfo::Place::Partition;
    }
    return info;
}

} // namespace

QString grubCorePlaceName(GrubCoreInfo::Place place)
{
    switch (place) {
    case GrubCoreInfo::Place::MbrGap:
        return QStringLiteral("mbr-gap");
    case GrubCoreInfo::Place::BiosBootPartition:
        return QStringLiteral("bios-boot-partition");
    case GrubCoreInfo::Place::Partition:
        return QStringLiteral("partition");
    case GrubCoreInfo::Place::Missing:
        return QStringLiteral("missing");
    }
    return {};
}

const PartitionBoot *BootInventory::partition(int number) const
{
    for (const PartitionBoot &p : partitions)
        if (p.number == number)
            return &p;
    return nullptr;
}

BootInventory readBootInventory(const DiskLayout &layout, const BootReadOptions &options)
{
    BootInventory inv;
    inv.disk = layout.device.path;
    inv.sectorSize = layout.device.topology.logicalSectorSize;
    inv.tableType = layout.tableType;
    const bool ownFd = options.diskFd < 0;
    const int fd =
        ownFd ? ::open(inv.disk.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC) : options.diskFd;
    if (fd < 0) {
        inv.notes << QStringLiteral("Cannot open %1 to see what boots from it.").arg(inv.disk);
        return inv;
    }
    // Sector 0 of a Mac, Sun or BSD label is that label's own: no MBR code, no GRUB to find.
    const bool mbrLabel = layout.tableType.isEmpty() || isEditableTableType(layout.tableType);
    const QByteArray mbr = mbrLabel ? readBytes(fd, 0, 512) : QByteArray();
    inv.mbrCode = mbrLabel ? identifyMbrCode(mbr) : MbrCode::None;
    const PartitionEntries entries =
        layout.tableType.isEmpty() ? PartitionEntries{} : readPartitionEntries(fd, inv.sectorSize);
    if (!layout.tableType.isEmpty() && !entries.ok)
        inv.notes << QStringLiteral("The partition types could not be read: %1").arg(entries.error);
    if (entries.tableType == QLatin1String("dos"))
        inv.diskSignature =
            entries.diskId.startsWith(QLatin1String("0x")) ? entries.diskId.mid(2) : entries.diskId;
    // GRUB's sectors are 512 bytes; on a 4Kn disk its BIOS boot code is not in use.
    if (const auto core = grubCoreSector(mbr); core && inv.sectorSize == 512)
        inv.grubCore = locateGrubCore(fd, *core, layout, entries);

    for (const PartitionInfo &p : layout.partitions()) {
        PartitionBoot pb;
        pb.number = p.number;
        if (const PartitionEntry *e = entries.byNumber(p.number)) {
            pb.esp = e->isEsp();
            pb.biosBoot = e->isBiosBoot();
        }
        if (pb.biosBoot && !inv.biosBootPartition)
            inv.biosBootPartition = p.number;
        if (pb.esp)
            inv.espPartitions << p.number;
        if (!p.isContainer()) {
            const QByteArray sector = readBytes(fd, p.startSector * inv.sectorSize, 512);
            pb.loader = identifyPartitionLoader(sector);
            pb.loaderName = partitionLoaderName(pb.loader, p.filesystem);
            if (pb.loader == PartitionLoader::Grub)
                pb.grubCoreSector = grubCoreSector(sector);
            if (sector.size() == 512 && recordsStart(p.filesystem, pb.loader))
                pb.recordedStart =
                    qFromLittleEndian<quint32>(sector.constData() + kHiddenSectorsOffset);
            // Only MBR disks name partitions by offset in the BCD; BOOTMGR's own partition
            // holds the store.
            if (options.readBcd && layout.tableType == QLatin1String("msdos") &&
                pb.loader == PartitionLoader::Bootmgr && p.filesystem == QLatin1String("ntfs")) {
                FilesystemLocation where;
                where.isImage = layout.device.isImage || p.devicePath.isEmpty();
                where.path = where.isImage ? layout.device.path : p.devicePath;
                where.offset = where.isImage ? p.startSector * inv.sectorSize : 0;
                pb.bcd = readBcdFromNtfs(where, p.lengthSectors() * inv.sectorSize);
                if (pb.bcd->found && !pb.bcd->read)
                    inv.notes << QStringLiteral("Partition %1's \\Boot\\BCD could not be read: %2")
                                     .arg(p.number)
                                     .arg(pb.bcd->error);
            }
        }
        inv.partitions << pb;
    }
    if (ownFd)
        ::close(fd);

    if (options.firmware && options.firmware->available && !layout.device.isImage) {
        inv.firmwareRead = true;
        for (const FirmwareEntry &e : options.firmware->entries) {
            QString mbrSignature = e.signature;
            mbrSignature.remove(QLatin1String("0x"));
            mbrSignature = mbrSignature.rightJustified(8, QLatin1Char('0'));
            for (const PartitionEntry &pe : entries.entries) {
                const bool named = e.gpt ? e.signature == pe.partitionGuid
                                         : !inv.diskSignature.isEmpty() &&
                                               mbrSignature == inv.diskSignature &&
                                               e.partition == pe.number;
                if (named)
                    inv.firmwareEntries << DiskFirmwareEntry{e, pe.number};
            }
        }
    }
    return inv;
}

} // namespace partwise
