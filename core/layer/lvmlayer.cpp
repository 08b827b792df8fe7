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

// The pe_start pvs reports for `device` in bytes, or -1 with `error` set.
qint64 lvmFirstExtentBytes(const QString &device, QString *uuid, QString *error)
{
    const QStringList args{QStringLiteral("--readonly"),
                           QStringLiteral("--reportformat"),
                           QStringLiteral("json"),
                           QStringLiteral("--units"),
                           QStringLiteral("b"),
                           QStringLiteral("--nosuffix"),
                           QStringLiteral("-o"),
                           QStringLiteral("pv_name,pv_uuid,pe_start"),
                           QStringLiteral("--config"),
                           lvmWithoutUdevConfig(),
                           device};
    const ToolResult run = runTool(QStringLiteral("pvs"), args, QStringLiteral("lvm2"), 60 * 1000,
                                   ToolChannels::Separate);
    if (!run.ok) {
        *error = run.error.isEmpty() ? run.output.trimmed() : run.error;
        return -1;
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
        return -1;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(run.output.toUtf8());
    const QJsonArray reports = doc.object().value(QStringLiteral("report")).toArray();
    const QJsonArray pvs = reports.isEmpty()
                               ? QJsonArray()
                               : reports.first().toObject().value(QStringLiteral("pv")).toArray();
    if (pvs.isEmpty()) {
        *error = QStringLiteral("pvs reports no physical volume there: %1")
                     .arg(run.output.trimmed().left(300));
        return -1;
    }
    const QJsonObject pv = pvs.first().toObject();
    bool ok = false;
    const qint64 start = pv.value(QStringLiteral("pe_start")).toString().toLongLong(&ok);
    if (!ok || start < 0) {
        *error = QStringLiteral("pvs gives no first extent for it");
        return -1;
    }
    *uuid = pv.value(QStringLiteral("pv_uuid")).toString();
    return start;
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
    const qint64 start = lvmFirstExtentBytes(path.path(), &layer.uuid, &error);
    if (start < 0) {
        layer.error = error;
        return layer;
    }
    layer.dataOffsetBytes = start;
    layer.absoluteOffsetBytes = bytes.offsetBytes + start;
    layer.remedy = QStringLiteral("move its extents to a new physical volume created aligned "
                                  "(pvcreate --dataalignment, vgextend, pvmove, vgreduce)");
    return layer;
}

} // namespace partwise
