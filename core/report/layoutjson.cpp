#include "report/layoutjson.h"

#include "report/jsonreader.h"

#include <QJsonArray>

#include <limits>
#include <optional>

namespace partwise {

namespace {

constexpr qint64 kMaxSector = std::numeric_limits<qint64>::max() / 65536;

QJsonValue optionalInt(const std::optional<qint64> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonObject topologyJson(const SectorTopology &t)
{
    return {{QStringLiteral("logical_sector_size"), t.logicalSectorSize},
            {QStringLiteral("physical_sector_size"), t.physicalSectorSize},
            {QStringLiteral("minimum_io_size"), t.minimumIoSize},
            {QStringLiteral("optimal_io_size"), t.optimalIoSize},
            {QStringLiteral("alignment_offset"), t.alignmentOffset},
            {QStringLiteral("physical_sector_size_drive"), t.physicalSectorSizeDrive},
            {QStringLiteral("physical_sector_size_measured"), t.physicalSectorSizeMeasured},
            {QStringLiteral("alignment_offset_measured"), t.alignmentOffsetMeasured},
            {QStringLiteral("write_penalty_measured"), t.writePenaltyMeasured},
            {QStringLiteral("source"), t.source}};
}

QJsonObject driveJson(const DriveReport &d)
{
    return {{QStringLiteral("asked"), d.asked},
            {QStringLiteral("answered"), d.answered},
            {QStringLiteral("reason"), d.reason},
            {QStringLiteral("protocol"), d.protocol},
            {QStringLiteral("device_type"), d.deviceType},
            {QStringLiteral("model"), d.model},
            {QStringLiteral("serial"), d.serial},
            {QStringLiteral("firmware"), d.firmware},
            {QStringLiteral("wwn"), d.wwn},
            {QStringLiteral("rotation_rate"),
             d.rotationRate ? QJsonValue(*d.rotationRate) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("logical_block_size"), d.logicalBlockSize},
            {QStringLiteral("physical_block_size"), d.physicalBlockSize},
            {QStringLiteral("smart_passed"),
             d.smartPassed ? QJsonValue(*d.smartPassed) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("reallocated_sectors"), optionalInt(d.reallocatedSectors)},
            {QStringLiteral("pending_sectors"), optionalInt(d.pendingSectors)},
            {QStringLiteral("uncorrectable_sectors"), optionalInt(d.uncorrectableSectors)},
            {QStringLiteral("media_errors"), optionalInt(d.mediaErrors)},
            {QStringLiteral("percentage_used"), optionalInt(d.percentageUsed)},
            {QStringLiteral("smartctl_version"), d.smartctlVersion},
            {QStringLiteral("device_type_unknown"), d.deviceTypeUnknown}};
}

QJsonObject layerJson(const StorageLayer &l)
{
    QJsonArray volumes;
    for (const LogicalVolumeExtents &lv : l.logicalVolumes)
        volumes.append(
            QJsonObject{{QStringLiteral("name"), lv.name},
                        {QStringLiteral("data_offset_bytes"), lv.dataOffsetBytes},
                        {QStringLiteral("absolute_offset_bytes"), lv.absoluteOffsetBytes},
                        {QStringLiteral("size_bytes"), lv.sizeBytes},
                        {QStringLiteral("active"), lv.active}});
    return {{QStringLiteral("type"), l.type},
            {QStringLiteral("volume_group"), l.volumeGroup},
            {QStringLiteral("extent_size_bytes"), l.extentSizeBytes},
            {QStringLiteral("logical_volumes"), volumes},
            {QStringLiteral("version"), l.version},
            {QStringLiteral("uuid"), l.uuid},
            {QStringLiteral("data_offset_bytes"), l.dataOffsetBytes},
            {QStringLiteral("absolute_offset_bytes"), l.absoluteOffsetBytes},
            {QStringLiteral("error"), l.error},
            {QStringLiteral("remedy"), l.remedy}};
}

QJsonObject regionJson(const PartitionInfo &r)
{
    QJsonArray layers;
    for (const StorageLayer &l : r.layers)
        layers.append(layerJson(l));
    return {{QStringLiteral("kind"), partitionKindName(r.kind)},
            {QStringLiteral("number"), r.number},
            {QStringLiteral("start_sector"), r.startSector},
            {QStringLiteral("end_sector"), r.endSector},
            {QStringLiteral("device_path"), r.devicePath},
            {QStringLiteral("name"), r.name},
            {QStringLiteral("flags"), QJsonArray::fromStringList(r.flags)},
            {QStringLiteral("filesystem"), r.filesystem},
            {QStringLiteral("label"), r.label},
            {QStringLiteral("uuid"), r.uuid},
            {QStringLiteral("inside_extended"), r.insideExtended},
            {QStringLiteral("mount_points"), QJsonArray::fromStringList(r.mountPoints)},
            {QStringLiteral("swap_on"), r.swapOn},
            {QStringLiteral("layers"), layers}};
}

SectorTopology readTopology(const QJsonObject &o, QString *problem)
{
    JsonReader r(o, QStringLiteral("the topology's"), problem);
    SectorTopology t;
    t.logicalSectorSize = r.integer("logical_sector_size", 512, 65536);
    t.physicalSectorSize = r.integer("physical_sector_size", 512, 1 << 24);
    t.minimumIoSize = r.integer("minimum_io_size", 0, qint64(1) << 32);
    t.optimalIoSize = r.integer("optimal_io_size", 0, qint64(1) << 32);
    t.alignmentOffset = r.integer("alignment_offset", -1, qint64(1) << 32);
    t.physicalSectorSizeDrive = r.integer("physical_sector_size_drive", 0, 1 << 24);
    t.physicalSectorSizeMeasured = r.integer("physical_sector_size_measured", 0, 1 << 24);
    t.alignmentOffsetMeasured = r.integer("alignment_offset_measured", 0, 1 << 24);
    t.writePenaltyMeasured = r.number("write_penalty_measured", 0, 1e6);
    t.source = r.string("source");
    return t;
}

DriveReport readDrive(const QJsonObject &o, QString *problem)
{
    JsonReader r(o, QStringLiteral("the drive's"), problem);
    constexpr qint64 big = std::numeric_limits<qint64>::max() / 2;
    DriveReport d;
    d.asked = r.boolean("asked");
    d.answered = r.boolean("answered");
    d.reason = r.string("reason");
    d.protocol = r.string("protocol");
    d.deviceType = r.string("device_type");
    d.model = r.string("model");
    d.serial = r.string("serial");
    d.firmware = r.string("firmware");
    d.wwn = r.string("wwn");
    if (const auto rpm = r.optionalInteger("rotation_rate", 0, 1000000))
        d.rotationRate = int(*rpm);
    d.logicalBlockSize = r.integer("logical_block_size", 0, 1 << 24);
    d.physicalBlockSize = r.integer("physical_block_size", 0, 1 << 24);
    if (!o.value(QStringLiteral("smart_passed")).isNull())
        d.smartPassed = r.boolean("smart_passed");
    d.reallocatedSectors = r.optionalInteger("reallocated_sectors", 0, big);
    d.pendingSectors = r.optionalInteger("pending_sectors", 0, big);
    d.uncorrectableSectors = r.optionalInteger("uncorrectable_sectors", 0, big);
    d.mediaErrors = r.optionalInteger("media_errors", 0, big);
    d.percentageUsed = r.optionalInteger("percentage_used", 0, 100000);
    d.smartctlVersion = r.string("smartctl_version");
    d.deviceTypeUnknown = r.boolean("device_type_unknown");
    return d;
}

bool readKind(const QString &name, PartitionInfo::Kind *kind)
{
    for (const auto k : {PartitionInfo::Kind::Primary, PartitionInfo::Kind::Extended,
                         PartitionInfo::Kind::Logical, PartitionInfo::Kind::Free})
        if (partitionKindName(k) == name) {
            *kind = k;
            return true;
        }
    return false;
}

// A physical volume's group; absent from the answers of helpers that did not read it.
void readVolumeGroup(const QJsonObject &o, JsonReader &l, QString *problem, StorageLayer *layer)
{
    if (!o.contains(QStringLiteral("volume_group")))
        return;
    layer->volumeGroup = l.string("volume_group");
    layer->extentSizeBytes = l.integer("extent_size_bytes", 0, kMaxSector);
    for (const QJsonValue &v : l.array("logical_volumes", 256)) {
        JsonReader r(v.toObject(), QStringLiteral("a logical volume's"), problem);
        LogicalVolumeExtents lv;
        lv.name = r.string("name");
        lv.dataOffsetBytes = r.integer("data_offset_bytes", 0, kMaxSector);
        lv.absoluteOffsetBytes = r.integer("absolute_offset_bytes", 0, kMaxSector);
        lv.sizeBytes = r.integer("size_bytes", 0, kMaxSector);
        lv.active = r.boolean("active");
        layer->logicalVolumes << lv;
    }
}

PartitionInfo readRegion(const QJsonObject &o, qint64 lastSector, int index, QString *problem)
{
    JsonReader r(o, QStringLiteral("region %1's").arg(index), problem);
    PartitionInfo p;
    if (!readKind(r.string("kind"), &p.kind) && problem->isEmpty())
        *problem = QStringLiteral("region %1's \"kind\" is not one Partwise knows").arg(index);
    p.number = int(r.integer("number", 0, 1 << 16));
    p.startSector = r.integer("start_sector", 0, lastSector);
    p.endSector = r.integer("end_sector", p.startSector, lastSector);
    p.devicePath = r.string("device_path");
    p.name = r.string("name");
    p.flags = r.strings("flags");
    p.filesystem = r.string("filesystem");
    p.label = r.string("label");
    p.uuid = r.string("uuid");
    p.insideExtended = r.boolean("inside_extended");
    // Absent from the answers of helpers older than the lock: nothing known to be in use.
    if (o.contains(QStringLiteral("mount_points")))
        p.mountPoints = r.strings("mount_points");
    if (o.contains(QStringLiteral("swap_on")))
        p.swapOn = r.boolean("swap_on");
    int n = 0;
    for (const QJsonValue &v : r.array("layers", 16)) {
        JsonReader l(v.toObject(), QStringLiteral("region %1's layer %2's").arg(index).arg(n++),
                     problem);
        StorageLayer layer;
        layer.type = l.string("type");
        layer.version = l.string("version");
        layer.uuid = l.string("uuid");
        layer.dataOffsetBytes = l.integer("data_offset_bytes", -1, kMaxSector);
        layer.absoluteOffsetBytes = l.integer("absolute_offset_bytes", -1, kMaxSector);
        layer.error = l.string("error");
        layer.remedy = l.string("remedy");
        readVolumeGroup(v.toObject(), l, problem, &layer);
        p.layers << layer;
    }
    return p;
}

} // namespace

QJsonObject layoutToJson(const DiskLayout &layout)
{
    const DeviceInfo &d = layout.device;
    QJsonArray regions;
    for (const PartitionInfo &r : layout.regions)
        regions.append(regionJson(r));
    return {{QStringLiteral("format"), kLayoutJsonFormat},
            {QStringLiteral("device"),
             QJsonObject{{QStringLiteral("path"), d.path},
                         {QStringLiteral("model"), d.model},
                         {QStringLiteral("size_bytes"), d.sizeBytes},
                         {QStringLiteral("length_sectors"), d.lengthSectors},
                         {QStringLiteral("is_image"), d.isImage},
                         {QStringLiteral("read_only"), d.readOnly},
                         {QStringLiteral("topology"), topologyJson(d.topology)},
                         {QStringLiteral("drive"), driveJson(d.drive)}}},
            {QStringLiteral("table_type"), layout.tableType},
            {QStringLiteral("whole_disk_filesystem"), layout.wholeDiskFilesystem},
            {QStringLiteral("first_usable_sector"), layout.firstUsableSector},
            {QStringLiteral("last_usable_sector"), layout.lastUsableSector},
            {QStringLiteral("max_primary_partitions"), layout.maxPrimaryPartitions},
            {QStringLiteral("regions"), regions},
            {QStringLiteral("warnings"), QJsonArray::fromStringList(layout.warnings)}};
}

bool layoutFromJson(const QJsonObject &json, DiskLayout *layout, QString *error)
{
    QString problem;
    JsonReader top(json, QStringLiteral("the layout's"), &problem);
    if (top.integer("format", 0, 1000) != kLayoutJsonFormat) {
        *error = QStringLiteral("The disk's description is in a format this Partwise does not "
                                "read (format %1; this one reads %2).")
                     .arg(json.value(QStringLiteral("format")).toVariant().toString())
                     .arg(kLayoutJsonFormat);
        return false;
    }
    DiskLayout out;
    const QJsonObject device = top.object("device");
    JsonReader d(device, QStringLiteral("the device's"), &problem);
    out.device.path = d.string("path");
    out.device.model = d.string("model");
    out.device.sizeBytes = d.integer("size_bytes", 0, std::numeric_limits<qint64>::max() / 2);
    out.device.lengthSectors = d.integer("length_sectors", 0, kMaxSector);
    out.device.isImage = d.boolean("is_image");
    out.device.readOnly = d.boolean("read_only");
    out.device.topology = readTopology(d.object("topology"), &problem);
    out.device.drive = readDrive(d.object("drive"), &problem);
    const qint64 last = std::max<qint64>(0, out.device.lengthSectors - 1);
    out.tableType = top.string("table_type");
    out.wholeDiskFilesystem = top.string("whole_disk_filesystem");
    out.firstUsableSector = top.integer("first_usable_sector", 0, last);
    out.lastUsableSector = top.integer("last_usable_sector", 0, last);
    out.maxPrimaryPartitions = int(top.integer("max_primary_partitions", 0, 1 << 16));
    int index = 0;
    for (const QJsonValue &v : top.array("regions", kMaxRegions))
        out.regions << readRegion(v.toObject(), last, index++, &problem);
    out.warnings = top.strings("warnings");
    if (!problem.isEmpty()) {
        *error = QStringLiteral("The disk's description cannot be used: %1.").arg(problem);
        return false;
    }
    *layout = std::move(out);
    return true;
}

} // namespace partwise
