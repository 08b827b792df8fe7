#include "layer/volumegroupcontrol.h"

#include "base/toolrunner.h"
#include "layer/lvmlayer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace partwise {

namespace {

// What an LVM tool said, without its notes about descriptors its caller left open.
QString lvmSaid(const ToolResult &run)
{
    // A report's tool (Separate channels) says why on standard error, a change's on its output.
    const QString said = run.errorOutput.isEmpty() ? run.output : run.errorOutput;
    QStringList lines;
    for (const QString &line : said.split(QLatin1Char('\n')))
        if (!line.contains(QLatin1String("leaked on")) && !line.trimmed().isEmpty())
            lines << line.trimmed();
    return lines.isEmpty() ? run.error
                           : lines.join(QLatin1Char(' ')); // a missing tool: its package
}

// The rows of an LVM report (`pvs`/`lvs --reportformat json`), or empty with `error` set.
QJsonArray lvmReport(const QString &tool, const QStringList &args, const char *rows, QString *error)
{
    // Not --readonly: that mode never asks device-mapper whether a volume is active.
    QStringList all{QStringLiteral("--reportformat"), QStringLiteral("json"),
                    QStringLiteral("--config"), lvmWithoutUdevConfig()};
    all << args;
    const ToolResult run =
        runTool(tool, all, QStringLiteral("lvm2"), 60 * 1000, ToolChannels::Separate);
    if (!run.ok) {
        *error = lvmSaid(run);
        return {};
    }
    const QJsonArray reports = QJsonDocument::fromJson(run.output.toUtf8())
                                   .object()
                                   .value(QStringLiteral("report"))
                                   .toArray();
    return reports.isEmpty() ? QJsonArray()
                             : reports.first().toObject().value(QLatin1String(rows)).toArray();
}

// LVM's own rule for a group's name; anything else read from a disk's metadata is refused
// rather than handed to vgchange (a leading '-' would be an option).
bool plainGroupName(const QString &name)
{
    static const QRegularExpression shape(QStringLiteral("^[A-Za-z0-9+_.][A-Za-z0-9+_.-]{0,126}$"));
    return shape.match(name).hasMatch() && name != QLatin1String(".") &&
           name != QLatin1String("..");
}

QStringList activeVolumesOf(const QString &group, QString *error)
{
    QStringList active;
    const QJsonArray rows =
        lvmReport(QStringLiteral("lvs"),
                  {QStringLiteral("-o"), QStringLiteral("lv_name,lv_active"), group}, "lv", error);
    for (const QJsonValue &v : rows)
        if (v.toObject().value(QStringLiteral("lv_active")).toString() == QLatin1String("active"))
            active << group + QLatin1Char('/') +
                          v.toObject().value(QStringLiteral("lv_name")).toString();
    return active;
}

VolumeGroupChange runVgchange(const QString &partitionNode, bool activate)
{
    VolumeGroupChange change = volumeGroupOf(partitionNode);
    if (!change.ok)
        return change;
    change.ok = false;
    const ToolResult run =
        runTool(QStringLiteral("vgchange"),
                {activate ? QStringLiteral("-ay") : QStringLiteral("-an"),
                 QStringLiteral("--config"), lvmWithoutUdevConfig(), change.volumeGroup},
                QStringLiteral("lvm2"), 120 * 1000);
    QString ignored;
    change.activeVolumes = activeVolumesOf(change.volumeGroup, &ignored);
    if (!run.ok) {
        change.inUse = !activate && run.output.contains(QLatin1String("in use"));
        change.error =
            change.inUse
                ? QStringLiteral("A logical volume of %1 is in use (%2): unmount it "
                                 "first.")
                      .arg(change.volumeGroup, change.activeVolumes.join(QStringLiteral(", ")))
                : QStringLiteral("Cannot %1 the volume group %2: %3")
                      .arg(activate ? QStringLiteral("activate") : QStringLiteral("deactivate"),
                           change.volumeGroup, lvmSaid(run).left(600));
        return change;
    }
    change.ok = true;
    return change;
}

} // namespace

VolumeGroupChange volumeGroupOf(const QString &partitionNode)
{
    VolumeGroupChange change;
    change.refused = true;
    QString error;
    const QJsonArray rows = lvmReport(
        QStringLiteral("pvs"),
        {QStringLiteral("-o"), QStringLiteral("vg_name,vg_uuid"), partitionNode}, "pv", &error);
    const QJsonObject pv = rows.isEmpty() ? QJsonObject() : rows.first().toObject();
    change.volumeGroup = pv.value(QStringLiteral("vg_name")).toString();
    change.uuid = pv.value(QStringLiteral("vg_uuid")).toString();
    if (rows.isEmpty()) {
        change.error = QStringLiteral("%1 is no LVM physical volume pvs can read%2")
                           .arg(partitionNode, error.isEmpty() ? QStringLiteral(".")
                                                               : QStringLiteral(": ") + error);
        return change;
    }
    if (change.volumeGroup.isEmpty()) {
        change.error =
            QStringLiteral("The physical volume %1 belongs to no volume group.").arg(partitionNode);
        return change;
    }
    if (!plainGroupName(change.volumeGroup)) {
        change.error = QStringLiteral("The volume group of %1 has a name LVM does not allow.")
                           .arg(partitionNode);
        return change;
    }
    change.refused = false;
    change.activeVolumes = activeVolumesOf(change.volumeGroup, &error);
    change.ok = true;
    return change;
}

VolumeGroupChange activateVolumeGroup(const QString &partitionNode)
{
    return runVgchange(partitionNode, true);
}

VolumeGroupChange deactivateVolumeGroup(const QString &partitionNode)
{
    return runVgchange(partitionNode, false);
}

} // namespace partwise
