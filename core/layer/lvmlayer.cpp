#include "layer/lvmlayer.h"

#include "base/toolrunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace partwise {

QString lvmWithoutUdevConfig()
{
    return QStringLiteral("devices { obtain_device_list_from_udev=0 }");
}

namespace {

// At most this many segments of logical volumes are listed for one physical volume.
constexpr int kMaxSegments = 256;

qint64 numberField(const QJsonObject &row, const char *key)
{
    bool ok = false;
    const qint64 value = row.value(QLatin1String(key)).toString().toLongLong(&ok);
    return ok && value >= 0 ? value : -1;
}

// `pvs --segments` for `device`: one row per stretch of extents (used by a logical volume or
// free), each with the PV's and its group's fields. Empty with `error` set when pvs fails.
QJsonArray lvmSegments(const QString &device, QString *error)
{
    // Not --readonly: that mode never asks device-mapper, so no volume would be reported active.
    const QStringList args{
        QStringLiteral("--reportformat"),
        QStringLiteral("json"),
        QStringLiteral("--units"),
        QStringLiteral("b"),
        QStringLiteral("--nosuffix"),
        QStringLiteral("--segments"),
        QStringLiteral("-o"),
        QStringLiteral("pv_name,pv_uuid,pe_start,vg_name,vg_extent_size,pvseg_start,pvseg_size,"
                       "lv_name,lv_active"),
        QStringLiteral("--config"),
        lvmWithoutUdevConfig(),
        device};
    const ToolResult run = runTool(QStringLiteral("pvs"), args, QStringLiteral("lvm2"), 60 * 1000,
                                   ToolChannels::Separate);
    if (!run.ok) {
        *error = run.error.isEmpty() ? run.output.trimmed() : run.error;
        return {};
    }
    // A label whose metadata area is damaged still reports the label's pe_start, with warnings:
    // LVM itself would not use that volume, so neither is its offset believed.
    QStringList warnings;
    for (const QString &line : run.errorOutput.split(QLatin1Char('\n')))
        if (line.trimmed().startsWith(QLatin1String("WARNING:")) &&
            !line.contains(QLatin1String("leaked on")))
            warnings << line.trimmed().mid(8).trimmed();
    if (!warnings.isEmpty()) {
        *error = QStringLiteral("pvs: %1").arg(warnings.mid(0, 3).join(QLatin1Char(' ')));
        return {};
    }
    const QJsonDocument doc = QJsonDocument::fromJson(run.output.toUtf8());
    const QJsonArray reports = doc.object().value(QStringLiteral("report")).toArray();
    const QJsonArray rows =
        reports.isEmpty() ? QJsonArray()
                          : reports.first().toObject().value(QStringLiteral("pvseg")).toArray();
    if (rows.isEmpty())
        *error = QStringLiteral("pvs reports no physical volume there: %1")
                     .arg(run.output.trimmed().left(300));
    return rows;
}

// The group, extent size and logical volumes of the segments' rows, into `layer`.
void readGroup(const QJsonArray &rows, qint64 partitionOffset, StorageLayer *layer)
{
    const QJsonObject first = rows.first().toObject();
    layer->volumeGroup = first.value(QStringLiteral("vg_name")).toString();
    if (layer->volumeGroup.isEmpty())
        return;
    layer->extentSizeBytes = qMax<qint64>(0, numberField(first, "vg_extent_size"));
    for (const QJsonValue &value : rows) {
        const QJsonObject row = value.toObject();
        const QString name = row.value(QStringLiteral("lv_name")).toString();
        const qint64 start = numberField(row, "pvseg_start");
        const qint64 count = numberField(row, "pvseg_size");
        if (name.isEmpty() || start < 0 || count < 0 || layer->extentSizeBytes <= 0 ||
            layer->logicalVolumes.size() >= kMaxSegments)
            continue;
        LogicalVolumeExtents lv;
        lv.name = name;
        lv.dataOffsetBytes = layer->dataOffsetBytes + start * layer->extentSizeBytes;
        lv.absoluteOffsetBytes = partitionOffset + lv.dataOffsetBytes;
        lv.sizeBytes = count * layer->extentSizeBytes;
        lv.active = row.value(QStringLiteral("lv_active")).toString() == QLatin1String("active");
        layer->logicalVolumes << lv;
    }
}

} // namespace

StorageLayer readLvmLayer(const PartitionBytes &bytes)
{
    StorageLayer layer;
    layer.type = QStringLiteral("LVM2_member");
    layer.version = QStringLiteral("lvm2");
    const PartitionPath path = PartitionPath::device(bytes);
    if (!path.ok()) {
        layer.error = QStringLiteral("pvs needs a block device: %1").arg(path.error());
        return layer;
    }
    QString error;
    const QJsonArray rows = lvmSegments(path.path(), &error);
    const qint64 start = rows.isEmpty() ? -1 : numberField(rows.first().toObject(), "pe_start");
    if (start < 0) {
        layer.error = error.isEmpty() ? QStringLiteral("pvs gives no first extent for it") : error;
        return layer;
    }
    layer.uuid = rows.first().toObject().value(QStringLiteral("pv_uuid")).toString();
    layer.dataOffsetBytes = start;
    layer.absoluteOffsetBytes = bytes.offsetBytes + start;
    readGroup(rows, bytes.offsetBytes, &layer);
    layer.remedy = QStringLiteral("move its extents to a new physical volume created aligned "
                                  "(pvcreate --dataalignment, vgextend, pvmove, vgreduce)");
    return layer;
}

} // namespace partwise
