#include "report/bootreport.h"

#include <QJsonArray>

namespace partwise {

namespace {

QJsonValue orNull(int number)
{
    return number > 0 ? QJsonValue(number) : QJsonValue(QJsonValue::Null);
}

QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

} // namespace

QJsonObject bootInventoryToJson(const BootInventory &inv)
{
    QJsonObject o;
    o[QStringLiteral("mbr_code")] = orNull(mbrCodeName(inv.mbrCode));
    if (inv.grubCore) {
        const GrubCoreInfo &c = *inv.grubCore;
        o[QStringLiteral("grub_core")] =
            QJsonObject{{QStringLiteral("sector"), qint64(c.sector)},
                        {QStringLiteral("place"), grubCorePlaceName(c.place)},
                        {QStringLiteral("partition"), orNull(c.partition)},
                        {QStringLiteral("last_sector"), c.place == GrubCoreInfo::Place::Missing
                                                            ? QJsonValue(QJsonValue::Null)
                                                            : QJsonValue(qint64(c.lastSector))}};
    } else {
        o[QStringLiteral("grub_core")] = QJsonValue::Null;
    }
    o[QStringLiteral("bios_boot_partition")] = orNull(inv.biosBootPartition);
    QJsonArray esps;
    for (int n : inv.espPartitions)
        esps.append(n);
    o[QStringLiteral("esp_partitions")] = esps;
    if (inv.firmwareRead) {
        QJsonArray entries;
        for (const DiskFirmwareEntry &f : inv.firmwareEntries)
            entries.append(QJsonObject{{QStringLiteral("id"), f.entry.id},
                                       {QStringLiteral("label"), f.entry.label},
                                       {QStringLiteral("partition"), f.partition},
                                       {QStringLiteral("start_sector"), f.entry.startSector},
                                       {QStringLiteral("size_sectors"), f.entry.sizeSectors},
                                       {QStringLiteral("path"), orNull(f.entry.path)}});
        o[QStringLiteral("firmware_entries")] = entries;
    } else {
        o[QStringLiteral("firmware_entries")] = QJsonValue::Null;
    }
    o[QStringLiteral("notes")] = QJsonArray::fromStringList(inv.notes);
    return o;
}

QJsonValue partitionBootToJson(const BootInventory &inv, int number)
{
    const PartitionBoot *pb = inv.partition(number);
    if (!pb || (pb->isEmpty() && !pb->recordedStart))
        return QJsonValue::Null;
    QJsonObject o;
    o[QStringLiteral("name")] = orNull(pb->loaderName);
    o[QStringLiteral("recorded_start_sector")] =
        pb->recordedStart ? QJsonValue(*pb->recordedStart) : QJsonValue(QJsonValue::Null);
    o[QStringLiteral("esp")] = pb->esp;
    o[QStringLiteral("bios_boot")] = pb->biosBoot;
    if (pb->bcd) {
        QJsonArray offsets;
        for (const BcdPartitionDevice &d : pb->bcd->devices)
            if (!offsets.contains(d.partitionOffsetBytes))
                offsets.append(d.partitionOffsetBytes);
        o[QStringLiteral("bcd")] = QJsonObject{
            {QStringLiteral("found"), pb->bcd->found},
            {QStringLiteral("read"), pb->bcd->read},
            {QStringLiteral("partition_offsets_bytes"), offsets},
            {QStringLiteral("error"), orNull(pb->bcd->read ? QString() : pb->bcd->error)}};
    } else {
        o[QStringLiteral("bcd")] = QJsonValue::Null;
    }
    return o;
}

QStringList bootInventoryLines(const BootInventory &inv)
{
    QStringList lines;
    QString mbr = QStringLiteral("boot: MBR code %1")
                      .arg(inv.mbrCode == MbrCode::None ? QStringLiteral("unreadable")
                                                        : mbrCodeName(inv.mbrCode));
    if (inv.grubCore) {
        const GrubCoreInfo &c = *inv.grubCore;
        mbr += QStringLiteral(", core.img at sector %1").arg(c.sector);
        if (c.place == GrubCoreInfo::Place::BiosBootPartition)
            mbr += QStringLiteral(" (BIOS boot partition %1)").arg(c.partition);
        else if (c.place == GrubCoreInfo::Place::Partition)
            mbr += QStringLiteral(" (inside partition %1)").arg(c.partition);
        else if (c.place == GrubCoreInfo::Place::MbrGap)
            mbr += QStringLiteral(" (in the gap before the first partition)");
        else
            mbr += QStringLiteral(" (not found there)");
    }
    // Only MBR and GPT disks (the GPT's protective MBR) start with MBR code; sector 0 of a Mac,
    // Sun or BSD label is that label's own, and "unreadable" there would be a false alarm.
    if (inv.tableType == QLatin1String("msdos") || inv.tableType == QLatin1String("gpt"))
        lines << mbr;
    for (const PartitionBoot &pb : inv.partitions) {
        QStringList what;
        if (!pb.loaderName.isEmpty())
            what << pb.loaderName;
        if (pb.esp)
            what << QStringLiteral("ESP");
        if (pb.biosBoot)
            what << QStringLiteral("BIOS boot partition");
        if (pb.bcd && pb.bcd->read)
            what << QStringLiteral("BCD naming %1 partition offset(s)").arg(pb.bcd->devices.size());
        if (!what.isEmpty())
            lines << QStringLiteral("boot: partition %1: %2")
                         .arg(pb.number)
                         .arg(what.join(QStringLiteral(", ")));
    }
    for (const DiskFirmwareEntry &f : inv.firmwareEntries)
        lines << QStringLiteral("boot: firmware entry %1 \"%2\" names partition %3")
                     .arg(f.entry.id, f.entry.label)
                     .arg(f.partition);
    for (const QString &n : inv.notes)
        lines << QStringLiteral("boot: ") + n;
    return lines;
}

} // namespace partwise
