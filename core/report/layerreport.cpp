#include "report/layerreport.h"

#include <QJsonObject>

namespace partwise {

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
