#include "layer/physicalvolumeresize.h"

#include "base/humansize.h"
#include "layer/lvmlayer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace partwise {

namespace {

qint64 numberField(const QJsonObject &row, const char *key)
{
    bool ok = false;
    const qint64 value = row.value(QLatin1String(key)).toString().toLongLong(&ok);
    return ok && value >= 0 ? value : -1;
}

// What an LVM tool said on standard error, without its notes about inherited descriptors.
QString lvmSaid(const ToolResult &run)
{
    QStringList lines;
    for (const QString &line : (run.errorOutput + QLatin1Char('\n') + run.output).split('\n'))
        if (!line.contains(QLatin1String("leaked on")) && !line.trimmed().isEmpty())
            lines << line.trimmed();
    return lines.isEmpty() ? run.error : lines.join(QLatin1Char(' ')).left(600);
}

} // namespace

PhysicalVolumeSpace physicalVolumeSpace(const QString &node)
{
    PhysicalVolumeSpace space;
    const ToolResult run =
        runTool(QStringLiteral("pvs"),
                {QStringLiteral("--reportformat"), QStringLiteral("json"),
                 QStringLiteral("--units"), QStringLiteral("b"), QStringLiteral("--nosuffix"),
                 QStringLiteral("--segments"), QStringLiteral("-o"),
                 QStringLiteral("pe_start,vg_extent_size,pvseg_start,pvseg_size,lv_name"),
                 QStringLiteral("--config"), lvmWithoutUdevConfig(), node},
                QStringLiteral("lvm2"), 60 * 1000, ToolChannels::Separate);
    const QJsonArray reports = QJsonDocument::fromJson(run.output.toUtf8())
                                   .object()
                                   .value(QStringLiteral("report"))
                                   .toArray();
    const QJsonArray rows =
        reports.isEmpty() ? QJsonArray()
                          : reports.first().toObject().value(QStringLiteral("pvseg")).toArray();
    if (!run.ok || rows.isEmpty()) {
        space.error =
            QStringLiteral("pvs cannot read the physical volume on %1: %2").arg(node, lvmSaid(run));
        return space;
    }
    space.firstExtentBytes = numberField(rows.first().toObject(), "pe_start");
    space.extentBytes = qMax<qint64>(0, numberField(rows.first().toObject(), "vg_extent_size"));
    for (const QJsonValue &value : rows) {
        const QJsonObject row = value.toObject();
        const qint64 start = numberField(row, "pvseg_start");
        const qint64 count = numberField(row, "pvseg_size");
        const QString volume = row.value(QStringLiteral("lv_name")).toString();
        if (start < 0 || count < 0) {
            space.error = QStringLiteral("pvs gives no extent map for %1.").arg(node);
            return space;
        }
        if (!volume.isEmpty() && start + count > space.allocatedEnd) {
            space.allocatedEnd = start + count;
            space.lastVolume = volume;
        }
    }
    space.ok = space.firstExtentBytes >= 0;
    if (!space.ok)
        space.error = QStringLiteral("pvs gives no first extent for %1.").arg(node);
    return space;
}

QString physicalVolumeShrinkProblem(const QString &node, qint64 newBytes)
{
    const PhysicalVolumeSpace space = physicalVolumeSpace(node);
    if (!space.ok)
        return space.error;
    if (newBytes <= space.firstExtentBytes)
        return QStringLiteral("the physical volume's data starts %1 into it (pvs: pe_start)")
            .arg(humanSize(space.firstExtentBytes));
    if (space.extentBytes <= 0)
        return QString(); // in no group: no extent is allocated
    const qint64 fit = (newBytes - space.firstExtentBytes) / space.extentBytes;
    if (space.allocatedEnd <= fit)
        return QString();
    return QStringLiteral("the logical volume %1 uses the physical volume's extent %2 (counted "
                          "from 0), and only %3 fit in %4 (pvs --segments); free the extents past "
                          "the new end first (lvreduce, or pvmove to another volume)")
        .arg(space.lastVolume)
        .arg(space.allocatedEnd - 1)
        .arg(fit)
        .arg(humanSize(newBytes));
}

ToolResult resizePhysicalVolume(const QString &node, qint64 newBytes)
{
    QStringList args{QStringLiteral("--config"), lvmWithoutUdevConfig()};
    if (newBytes > 0) {
        if (const QString problem = physicalVolumeShrinkProblem(node, newBytes); !problem.isEmpty())
            return ToolResult::failed(QStringLiteral("The physical volume on %1 cannot shrink to "
                                                     "%2: %3.")
                                          .arg(node, humanSize(newBytes), problem));
        // --yes answers pvresize's "less than real size, proceed?": the fit was checked above.
        args << QStringLiteral("--yes") << QStringLiteral("--setphysicalvolumesize")
             << QStringLiteral("%1b").arg(newBytes);
    }
    args << node;
    ToolResult run = runTool(QStringLiteral("pvresize"), args, QStringLiteral("lvm2"), 120 * 1000,
                             ToolChannels::Separate);
    if (!run.ok)
        run.error = QStringLiteral("pvresize of %1 failed: %2").arg(node, lvmSaid(run));
    return run;
}

QString physicalVolumeResizeLine(const QString &node, qint64 newBytes)
{
    return QStringLiteral("pvresize %1 to %2").arg(node, humanSize(newBytes));
}

} // namespace partwise
