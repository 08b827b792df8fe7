#include "report/bootjsonreader.h"

#include "report/jsonreader.h"

#include <limits>

namespace partwise {

namespace {

constexpr qint64 kMaxSector = std::numeric_limits<qint64>::max() / 65536;
constexpr int kMaxPartition = 4096;

// The names bootreport.cpp writes, each turned back into its value.
std::optional<MbrCode> mbrCodeNamed(const QString &name)
{
    for (MbrCode c :
         {MbrCode::None, MbrCode::Empty, MbrCode::Grub, MbrCode::GrubLegacy, MbrCode::Syslinux,
          MbrCode::WindowsNt, MbrCode::WindowsVista, MbrCode::Generic, MbrCode::Unknown})
        if (mbrCodeName(c) == name)
            return c;
    return std::nullopt;
}

std::optional<GrubCoreInfo::Place> placeNamed(const QString &name)
{
    for (auto p : {GrubCoreInfo::Place::MbrGap, GrubCoreInfo::Place::BiosBootPartition,
                   GrubCoreInfo::Place::Partition, GrubCoreInfo::Place::Missing})
        if (grubCorePlaceName(p) == name)
            return p;
    return std::nullopt;
}

// syslinux is so named on FAT, extlinux elsewhere: both are the same loader.
std::optional<PartitionLoader> loaderNamed(const QString &name)
{
    for (PartitionLoader l :
         {PartitionLoader::None, PartitionLoader::Grub, PartitionLoader::Syslinux,
          PartitionLoader::Ntldr, PartitionLoader::Bootmgr})
        for (const char *fs : {"vfat", "ext4"})
            if (partitionLoaderName(l, QLatin1String(fs)) == name)
                return l;
    return std::nullopt;
}

void unknownName(QString *problem, const QString &where, const char *key)
{
    if (problem->isEmpty())
        *problem = QStringLiteral("%1 \"%2\" is not one Partwise knows").arg(where).arg(key);
}

int partitionNumber(JsonReader &r, const char *key)
{
    return int(r.optionalInteger(key, 1, kMaxPartition).value_or(0));
}

std::optional<GrubCoreInfo> readGrubCore(const QJsonObject &o, QString *problem)
{
    const QString where = QStringLiteral("the boot's grub_core's");
    JsonReader r(o, where, problem);
    GrubCoreInfo c;
    c.sector = quint64(r.integer("sector", 0, kMaxSector));
    const auto place = placeNamed(r.string("place"));
    if (!place)
        unknownName(problem, where, "place");
    c.place = place.value_or(GrubCoreInfo::Place::Missing);
    c.partition = partitionNumber(r, "partition");
    c.lastSector = quint64(r.optionalInteger("last_sector", 0, kMaxSector).value_or(0));
    if (c.lastSector < c.sector && c.place != GrubCoreInfo::Place::Missing && problem->isEmpty())
        *problem = QStringLiteral("%1 \"last_sector\" is before its \"sector\"").arg(where);
    return c;
}

DiskFirmwareEntry readFirmwareEntry(const QJsonValue &v, int index, QString *problem)
{
    const QString where = QStringLiteral("firmware entry %1's").arg(index);
    if (!v.isObject() && problem->isEmpty())
        *problem = QStringLiteral("firmware entry %1 is not an object").arg(index);
    JsonReader r(v.toObject(), where, problem);
    DiskFirmwareEntry f;
    f.entry.id = r.string("id");
    f.entry.label = r.string("label");
    f.partition = int(r.integer("partition", 1, kMaxPartition));
    f.entry.partition = f.partition;
    f.entry.startSector = r.integer("start_sector", 0, kMaxSector);
    f.entry.sizeSectors = r.integer("size_sectors", 0, kMaxSector);
    f.entry.path = r.optionalString("path");
    f.entry.active = true;
    return f;
}

std::optional<BcdStore> readBcd(const QJsonObject &o, int number, QString *problem)
{
    JsonReader r(o, QStringLiteral("partition %1's bcd's").arg(number), problem);
    BcdStore s;
    s.found = r.boolean("found");
    s.read = r.boolean("read");
    s.error = r.optionalString("error");
    for (const QJsonValue &v : r.array("partition_offsets_bytes", 1024)) {
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 0 || d > double(kMaxSector) || d != double(qint64(d))) {
            if (problem->isEmpty())
                *problem = QStringLiteral("partition %1's bcd's \"partition_offsets_bytes\" holds "
                                          "something not a byte offset")
                               .arg(number);
            break;
        }
        BcdPartitionDevice dev;
        dev.partitionOffsetBytes = qint64(d);
        s.devices << dev;
    }
    return s;
}

PartitionBoot readPartitionBoot(const QJsonObject &o, int number, QString *problem)
{
    const QString where = QStringLiteral("partition %1's boot_loader's").arg(number);
    JsonReader r(o, where, problem);
    PartitionBoot pb;
    pb.number = number;
    pb.loaderName = r.optionalString("name");
    const auto loader = loaderNamed(pb.loaderName);
    if (!loader)
        unknownName(problem, where, "name");
    pb.loader = loader.value_or(PartitionLoader::None);
    pb.recordedStart = r.optionalInteger("recorded_start_sector", 0, 0xFFFFFFFFLL);
    pb.esp = r.boolean("esp");
    pb.biosBoot = r.boolean("bios_boot");
    const QJsonValue bcd = o.value(QStringLiteral("bcd"));
    if (bcd.isObject())
        pb.bcd = readBcd(bcd.toObject(), number, problem);
    else if (!bcd.isNull() && problem->isEmpty())
        *problem = QStringLiteral("%1 \"bcd\" is not an object or null").arg(where);
    return pb;
}

QList<int> partitionNumbers(JsonReader &r, const char *key, QString *problem)
{
    QList<int> numbers;
    for (const QJsonValue &v : r.array(key, kMaxPartition)) {
        const int n = v.toInt(0);
        if (!v.isDouble() || n < 1 || n > kMaxPartition || double(n) != v.toDouble()) {
            if (problem->isEmpty())
                *problem = QStringLiteral("the boot's \"%1\" holds something not a partition "
                                          "number")
                               .arg(QLatin1String(key));
            break;
        }
        numbers << n;
    }
    return numbers;
}

} // namespace

std::optional<BootInventory> bootInventoryFromJson(const QJsonObject &device, QString *problem)
{
    const QJsonValue bootValue = device.value(QStringLiteral("boot"));
    if (bootValue.isUndefined())
        return std::nullopt;
    QString found;
    JsonReader d(device, QStringLiteral("the device's"), &found);
    const QJsonObject boot = d.object("boot");
    const QString where = QStringLiteral("the boot's");
    JsonReader r(boot, where, &found);
    BootInventory inv;
    inv.disk = d.string("path");
    inv.sectorSize = d.integer("logical_sector_size", 512, 65536);
    inv.tableType = d.optionalString("table");
    const auto code = mbrCodeNamed(r.optionalString("mbr_code"));
    if (!code)
        unknownName(&found, where, "mbr_code");
    inv.mbrCode = code.value_or(MbrCode::None);
    const QJsonValue core = boot.value(QStringLiteral("grub_core"));
    if (core.isObject())
        inv.grubCore = readGrubCore(core.toObject(), &found);
    else if (!core.isNull() && found.isEmpty())
        found = QStringLiteral("the boot's \"grub_core\" is not an object or null");
    inv.biosBootPartition = partitionNumber(r, "bios_boot_partition");
    inv.espPartitions = partitionNumbers(r, "esp_partitions", &found);
    const QJsonValue firmware = boot.value(QStringLiteral("firmware_entries"));
    inv.firmwareRead = !firmware.isNull();
    if (inv.firmwareRead) {
        int index = 0;
        for (const QJsonValue &v : r.array("firmware_entries", 1024))
            inv.firmwareEntries << readFirmwareEntry(v, ++index, &found);
    }
    inv.notes = r.strings("notes");
    int index = 0;
    for (const QJsonValue &v : d.array("partitions", 4096)) {
        JsonReader p(v.toObject(), QStringLiteral("partition %1's").arg(++index), &found);
        const int number = int(p.integer("number", 0, kMaxPartition));
        const QJsonValue loader = v.toObject().value(QStringLiteral("boot_loader"));
        PartitionBoot pb;
        pb.number = number;
        if (loader.isObject())
            pb = readPartitionBoot(loader.toObject(), number, &found);
        else if (!loader.isNull() && found.isEmpty())
            found = QStringLiteral("partition %1's \"boot_loader\" is not an object or null")
                        .arg(number);
        inv.partitions << pb;
    }
    if (!found.isEmpty()) {
        *problem = found;
        return std::nullopt;
    }
    return inv;
}

} // namespace partwise
