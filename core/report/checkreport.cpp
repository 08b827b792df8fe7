#include "report/checkreport.h"

#include "base/humansize.h"
#include "device/drivehealth.h"
#include "fs/filesystemtools.h"
#include "report/bootreport.h"
#include "report/layerreport.h"

#include <QJsonArray>
#include <QTextStream>

namespace partwise {

namespace {

QJsonValue optionalString(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

QJsonObject partitionToJson(const PartitionInfo &p, const AlignmentVerdict &v, qint64 sectorSize)
{
    QJsonObject o;
    o[QStringLiteral("number")] = p.number;
    o[QStringLiteral("kind")] = partitionKindName(p.kind);
    o[QStringLiteral("start_sector")] = p.startSector;
    o[QStringLiteral("end_sector")] = p.endSector;
    o[QStringLiteral("size_bytes")] = p.lengthSectors() * sectorSize;
    o[QStringLiteral("filesystem")] = optionalString(p.filesystem);
    o[QStringLiteral("label")] = optionalString(p.label);
    o[QStringLiteral("uuid")] = optionalString(p.uuid);
    if (!p.name.isEmpty())
        o[QStringLiteral("name")] = p.name;
    o[QStringLiteral("flags")] = QJsonArray::fromStringList(p.flags);
    o[QStringLiteral("misalignment_bytes")] = v.misalignmentBytes;
    o[QStringLiteral("status")] = alignmentStatusName(v.status);
    // Why it moves only with --accept-unchecked; null when it can be checked (or holds nothing).
    const QString why = noCheckReason(p.filesystem);
    o[QStringLiteral("unchecked_reason")] =
        why.isEmpty() ? QJsonValue(QJsonValue::Null)
                      : QJsonValue(why + QStringLiteral(", so realign moves it only with "
                                                        "--accept-unchecked"));
    return o;
}

QJsonValue optionalBytes(qint64 bytes)
{
    return bytes > 0 ? QJsonValue(bytes) : QJsonValue(QJsonValue::Null);
}

// What the drive said about itself through smartctl; null when it was not asked.
QJsonValue driveToJson(const DriveReport &d)
{
    if (!d.asked && d.reason.isEmpty())
        return QJsonValue::Null;
    QJsonObject o;
    o[QStringLiteral("answered")] = d.answered;
    if (!d.answered) {
        o[QStringLiteral("reason")] = d.reason;
        return o;
    }
    o[QStringLiteral("protocol")] = optionalString(d.protocol);
    o[QStringLiteral("model")] = optionalString(d.model);
    o[QStringLiteral("serial")] = optionalString(d.serial);
    o[QStringLiteral("firmware")] = optionalString(d.firmware);
    o[QStringLiteral("wwn")] = optionalString(d.wwn);
    o[QStringLiteral("rotation_rate")] =
        d.rotationRate ? QJsonValue(*d.rotationRate) : QJsonValue(QJsonValue::Null);
    o[QStringLiteral("logical_block_size")] = optionalBytes(d.logicalBlockSize);
    o[QStringLiteral("physical_block_size")] = optionalBytes(d.physicalBlockSize);
    o[QStringLiteral("smart_passed")] =
        d.smartPassed ? QJsonValue(*d.smartPassed) : QJsonValue(QJsonValue::Null);
    const auto counter = [](const std::optional<qint64> &v) {
        return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
    };
    o[QStringLiteral("reallocated_sectors")] = counter(d.reallocatedSectors);
    o[QStringLiteral("pending_sectors")] = counter(d.pendingSectors);
    o[QStringLiteral("uncorrectable_sectors")] = counter(d.uncorrectableSectors);
    o[QStringLiteral("media_errors")] = counter(d.mediaErrors);
    o[QStringLiteral("percentage_used")] = counter(d.percentageUsed);
    const DriveHealth health = judgeDriveHealth(d);
    o[QStringLiteral("health")] = driveHealthName(health.status);
    o[QStringLiteral("health_findings")] = QJsonArray::fromStringList(health.findings);
    return o;
}

QString bytesOrNone(qint64 bytes)
{
    return bytes > 0 ? QStringLiteral("%1 B").arg(bytes) : QStringLiteral("nothing");
}

// "drive reports 4096 B, measured 8192 B at offset 0 B, Partwise assumes 8192 B (measured)"
QString physicalLine(const AlignmentGeometry &g)
{
    QString measured = bytesOrNone(g.physicalMeasured);
    if (g.physicalMeasured > 0)
        measured += QStringLiteral(" at offset %1 B").arg(g.alignmentOffsetMeasured);
    return QStringLiteral("physical sector: drive reports %1, measured %2, Partwise assumes %3 B "
                          "(%4)")
        .arg(bytesOrNone(g.physicalDrive), measured)
        .arg(g.physicalAssumed)
        .arg(physicalSourceName(g.physicalSource));
}

// "ST4000DM004, serial ZFN0ABCD, firmware 0001, 5400 rpm, SMART health passed"
QString driveLine(const DriveReport &d)
{
    if (!d.answered)
        return QStringLiteral("not asked: ") + d.reason;
    QStringList parts{d.model.isEmpty() ? QStringLiteral("unknown model") : d.model};
    if (!d.serial.isEmpty())
        parts << QStringLiteral("serial ") + d.serial;
    if (!d.firmware.isEmpty())
        parts << QStringLiteral("firmware ") + d.firmware;
    if (d.rotationRate)
        parts << (*d.rotationRate == 0 ? QStringLiteral("solid state")
                                       : QStringLiteral("%1 rpm").arg(*d.rotationRate));
    const DriveHealth health = judgeDriveHealth(d);
    if (health.status != DriveHealthStatus::Unknown)
        parts << QStringLiteral("health %1%2")
                     .arg(driveHealthName(health.status),
                          health.findings.isEmpty()
                              ? QString()
                              : QStringLiteral(" (%1)").arg(
                                    health.findings.join(QStringLiteral(", "))));
    return parts.join(QStringLiteral(", "));
}

QString statusText(const AlignmentVerdict &v)
{
    if (v.status == AlignmentStatus::Misaligned)
        return QStringLiteral("misaligned by %1 bytes").arg(v.misalignmentBytes);
    return alignmentStatusName(v.status);
}

} // namespace

int DiskCheck::misalignedLayerCount() const
{
    int count = 0;
    for (const PartitionInfo &p : layout.regions)
        for (const StorageLayer &layer : p.layers)
            count += layerMisaligned(layer, alignment.geometry) ? 1 : 0;
    return count;
}

QJsonObject diskCheckToJson(const DiskCheck &check)
{
    const DiskLayout &l = check.layout;
    const AlignmentGeometry &g = check.alignment.geometry;
    QJsonObject o;
    o[QStringLiteral("path")] = l.device.path;
    o[QStringLiteral("model")] = l.device.model;
    o[QStringLiteral("size_bytes")] = l.device.sizeBytes;
    o[QStringLiteral("logical_sector_size")] = g.logicalSectorSize;
    o[QStringLiteral("physical_sector_size_reported")] = g.physicalReported;
    o[QStringLiteral("physical_sector_size_assumed")] = g.physicalAssumed;
    o[QStringLiteral("alignment_offset")] = g.alignmentOffsetReported;
    o[QStringLiteral("physical_sector_size_drive")] = optionalBytes(g.physicalDrive);
    o[QStringLiteral("physical_sector_size_measured")] = optionalBytes(g.physicalMeasured);
    o[QStringLiteral("alignment_offset_measured")] = g.physicalMeasured > 0
                                                         ? QJsonValue(g.alignmentOffsetMeasured)
                                                         : QJsonValue(QJsonValue::Null);
    o[QStringLiteral("physical_sector_source")] = physicalSourceName(g.physicalSource);
    o[QStringLiteral("minimum_io_size")] = l.device.topology.minimumIoSize;
    o[QStringLiteral("optimal_io_size")] = l.device.topology.optimalIoSize;
    o[QStringLiteral("grain_bytes")] = g.grainBytes;
    o[QStringLiteral("table")] = optionalString(l.tableType);
    o[QStringLiteral("drive")] = driveToJson(l.device.drive);
    if (!l.wholeDiskFilesystem.isEmpty())
        o[QStringLiteral("whole_disk_filesystem")] = l.wholeDiskFilesystem;
    QJsonArray parts;
    for (int i = 0; i < l.regions.size(); ++i) {
        const PartitionInfo &p = l.regions[i];
        if (p.isFree())
            continue;
        QJsonObject part = partitionToJson(p, check.alignment.verdicts[i], g.logicalSectorSize);
        part[QStringLiteral("layers")] = layersToJson(p.layers, g);
        if (check.boot)
            part[QStringLiteral("boot_loader")] = partitionBootToJson(*check.boot, p.number);
        parts.append(part);
    }
    o[QStringLiteral("partitions")] = parts;
    o[QStringLiteral("misaligned_layer_count")] = check.misalignedLayerCount();
    o[QStringLiteral("misaligned_count")] = check.alignment.misalignedCount();
    o[QStringLiteral("warnings")] = QJsonArray::fromStringList(l.warnings);
    if (check.boot)
        o[QStringLiteral("boot")] = bootInventoryToJson(*check.boot);
    return o;
}

QString diskCheckToText(const DiskCheck &check)
{
    const DiskLayout &l = check.layout;
    const AlignmentGeometry &g = check.alignment.geometry;
    QString out;
    QTextStream s(&out);
    s << l.device.path << " — "
      << (l.device.model.isEmpty() ? QStringLiteral("unknown model") : l.device.model) << ", "
      << humanSize(l.device.sizeBytes) << ", "
      << (l.tableType.isEmpty() ? QStringLiteral("no partition table") : l.tableType) << "\n";
    s << "  sectors: logical " << g.logicalSectorSize << " B, physical " << g.physicalReported
      << " B reported, " << g.physicalAssumed << " B assumed; grain " << humanSize(g.grainBytes)
      << "; alignment offset " << g.alignmentOffsetReported << " B\n";
    if (!l.device.isImage)
        s << "  " << physicalLine(g) << "\n";
    if (l.device.drive.asked || !l.device.drive.reason.isEmpty())
        s << "  drive: " << driveLine(l.device.drive) << "\n";
    for (const QString &w : l.warnings)
        s << "  warning: " << w << "\n";
    if (!l.wholeDiskFilesystemName().isEmpty())
        s << "  no partition table: the whole disk holds " << l.wholeDiskFilesystemName() << "\n";
    if (l.isHybridIso())
        s << "  hybrid ISO 9660: the whole disk is one ISO 9660 filesystem and its partitions are "
             "windows into it; Partwise never moves, resizes or deletes them\n";
    const QList<PartitionInfo> parts = l.partitions();
    if (parts.isEmpty()) {
        s << "  no partitions\n";
        return out;
    }
    s << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8\n")
             .arg(QStringLiteral("#"), -4)
             .arg(QStringLiteral("kind"), -9)
             .arg(QStringLiteral("start"), 12)
             .arg(QStringLiteral("end"), 12)
             .arg(QStringLiteral("size"), 10)
             .arg(QStringLiteral("filesystem"), -11)
             .arg(QStringLiteral("label"), -12)
             .arg(QStringLiteral("status"));
    for (int i = 0; i < l.regions.size(); ++i) {
        const PartitionInfo &p = l.regions[i];
        if (p.isFree())
            continue;
        s << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8\n")
                 .arg(p.number, -4)
                 .arg(partitionKindName(p.kind), -9)
                 .arg(p.startSector, 12)
                 .arg(p.endSector, 12)
                 .arg(humanSize(p.lengthSectors() * g.logicalSectorSize), 10)
                 .arg(p.filesystem.isEmpty() ? QStringLiteral("-") : p.filesystem, -11)
                 .arg(p.label.isEmpty() ? QStringLiteral("-") : p.label, -12)
                 .arg(statusText(check.alignment.verdicts[i]));
    }
    for (const PartitionInfo &p : l.regions)
        for (const QString &line : layerLines(p.number, p.layers, g))
            s << "  " << line << "\n";
    if (check.boot)
        for (const QString &line : bootInventoryLines(*check.boot))
            s << "  " << line << "\n";
    const MisalignmentReport &a = check.alignment;
    s << "  " << a.misalignedCount() << " of " << a.partitionCount() << " partitions misaligned";
    if (a.sectorAlignedCount() > 0)
        s << ", " << a.sectorAlignedCount() << " on a physical sector but off the grain";
    if (const int layers = check.misalignedLayerCount())
        s << "; " << layers << (layers == 1 ? " layer" : " layers")
          << " inside partitions misaligned";
    s << "\n";
    return out;
}

} // namespace partwise
