#include "report/layerreport.h"

#include "align/extentgrain.h"

#include <QJsonObject>

namespace partwise {

namespace {

// A physical volume's group: its name, extent size against the grain, and each stretch of a
// logical volume on it with the verdict on its first byte.
void addVolumeGroup(const StorageLayer &layer, const AlignmentGeometry &geometry, QJsonObject *o)
{
    if (layer.volumeGroup.isEmpty())
        return;
    QJsonArray volumes;
    for (const LogicalVolumeExtents &lv : layer.logicalVolumes) {
        const AlignmentVerdict v = judgeByte(lv.absoluteOffsetBytes, geometry);
        volumes.append(
            QJsonObject{{QStringLiteral("name"), lv.name},
                        {QStringLiteral("data_offset_bytes"), lv.dataOffsetBytes},
                        {QStringLiteral("absolute_offset_bytes"), lv.absoluteOffsetBytes},
                        {QStringLiteral("size_bytes"), lv.sizeBytes},
                        {QStringLiteral("active"), lv.active},
                        {QStringLiteral("status"), alignmentStatusName(v.status)},
                        {QStringLiteral("misalignment_bytes"), v.misalignmentBytes}});
    }
    (*o)[QStringLiteral("volume_group")] = layer.volumeGroup;
    (*o)[QStringLiteral("extent_size_bytes")] = layer.extentSizeBytes;
    (*o)[QStringLiteral("extents_keep_grain")] = extentsKeepGrain(layer.extentSizeBytes, geometry);
    (*o)[QStringLiteral("logical_volumes")] = volumes;
}

} // namespace

AlignmentVerdict judgeLayer(const StorageLayer &layer, const AlignmentGeometry &geometry)
{
    return judgeByte(layer.absoluteOffsetBytes, geometry);
}

bool layerMisaligned(const StorageLayer &layer, const AlignmentGeometry &geometry)
{
    return layer.readable() && judgeLayer(layer, geometry).status == AlignmentStatus::Misaligned;
}

QString layerDisplayName(const StorageLayer &layer)
{
    if (layer.type == QLatin1String("crypto_LUKS"))
        return QStringLiteral("LUKS%1").arg(layer.version);
    if (layer.type == QLatin1String("LVM2_member"))
        return QStringLiteral("LVM physical volume");
    return layer.type;
}

QJsonArray layersToJson(const StorageLayers &layers, const AlignmentGeometry &geometry)
{
    QJsonArray list;
    for (const StorageLayer &layer : layers) {
        QJsonObject o;
        o[QStringLiteral("type")] = layer.type;
        o[QStringLiteral("version")] = layer.version;
        o[QStringLiteral("uuid")] =
            layer.uuid.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(layer.uuid);
        if (!layer.readable()) {
            o[QStringLiteral("data_offset_bytes")] = QJsonValue::Null;
            o[QStringLiteral("absolute_offset_bytes")] = QJsonValue::Null;
            o[QStringLiteral("status")] = QStringLiteral("unreadable");
            o[QStringLiteral("misalignment_bytes")] = QJsonValue::Null;
            o[QStringLiteral("error")] = layer.error;
        } else {
            const AlignmentVerdict v = judgeLayer(layer, geometry);
            o[QStringLiteral("data_offset_bytes")] = layer.dataOffsetBytes;
            o[QStringLiteral("absolute_offset_bytes")] = layer.absoluteOffsetBytes;
            o[QStringLiteral("status")] = alignmentStatusName(v.status);
            o[QStringLiteral("misalignment_bytes")] = v.misalignmentBytes;
            if (v.status == AlignmentStatus::Misaligned)
                o[QStringLiteral("remedy")] = layer.remedy;
            addVolumeGroup(layer, geometry, &o);
        }
        list.append(o);
    }
    return list;
}

QStringList layerLines(int partitionNumber, const StorageLayers &layers,
                       const AlignmentGeometry &geometry)
{
    QStringList lines;
    for (const StorageLayer &layer : layers) {
        const QString name = layerDisplayName(layer);
        if (!layer.readable()) {
            lines << QStringLiteral("partition %1: its %2 cannot be read: %3")
                         .arg(partitionNumber)
                         .arg(name, layer.error);
            continue;
        }
        const AlignmentVerdict v = judgeLayer(layer, geometry);
        if (v.status != AlignmentStatus::Misaligned)
            continue;
        lines << QStringLiteral("partition %1: its %2 data starts %3 bytes into the partition "
                                "(byte %4 of the disk), %5 bytes past a %6-byte physical sector: "
                                "misaligned. Moving the partition cannot fix that; %7.")
                     .arg(partitionNumber)
                     .arg(name)
                     .arg(layer.dataOffsetBytes)
                     .arg(layer.absoluteOffsetBytes)
                     .arg(v.misalignmentBytes)
                     .arg(geometry.physicalAssumed)
                     .arg(layer.remedy);
    }
    return lines;
}

} // namespace partwise
