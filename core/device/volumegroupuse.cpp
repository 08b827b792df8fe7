#include "device/volumegroupuse.h"

#include "base/toolrunner.h"
#include "device/kernelholder.h"
#include "device/sysfsline.h"

#include <QDir>
#include <QStringList>

#include <unistd.h>

namespace partwise {

namespace {

struct ActiveVolume
{
    QString groupUuid; // 32 characters, without LVM's dashes
    QString name;      // "vg0/home"
};

// Every active LVM logical volume, from sysfs: dm/uuid is "LVM-" + group UUID + volume UUID.
QList<ActiveVolume> activeVolumes()
{
    QList<ActiveVolume> out;
    const QDir block(QStringLiteral("/sys/class/block"));
    for (const QString &name :
         block.entryList({QStringLiteral("dm-*")}, QDir::Dirs | QDir::System)) {
        const QString uuid = sysfsLine(block.filePath(name + QStringLiteral("/dm/uuid")));
        QString vg, lv;
        if (!uuid.startsWith(QLatin1String("LVM-")) || uuid.size() < 4 + 32 ||
            !splitLvmName(sysfsLine(block.filePath(name + QStringLiteral("/dm/name"))), &vg, &lv))
            continue;
        out << ActiveVolume{uuid.mid(4, 32), vg + QLatin1Char('/') + lv};
    }
    return out;
}

} // namespace

QString activeVolumeGroupReason(const QString &node)
{
    const QList<ActiveVolume> active = activeVolumes();
    if (active.isEmpty() || ::geteuid() != 0)
        return {};
    // Not udev's device list: where no udevd runs, LVM would wait for it.
    const ToolResult pvs =
        runTool(QStringLiteral("pvs"),
                {QStringLiteral("--noheadings"), QStringLiteral("-o"),
                 QStringLiteral("vg_name,vg_uuid"), QStringLiteral("--config"),
                 QStringLiteral("devices { obtain_device_list_from_udev=0 }"), node},
                QStringLiteral("lvm2"), 60 * 1000, ToolChannels::Separate);
    const QStringList fields = pvs.output.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (!pvs.ok || fields.size() != 2) // no physical volume, or one of no group
        return {};
    const QString group = fields.at(0);
    const QString uuid = QString(fields.at(1)).remove(QLatin1Char('-'));
    QStringList volumes;
    for (const ActiveVolume &volume : active)
        if (volume.groupUuid == uuid)
            volumes << volume.name;
    if (volumes.isEmpty())
        return {};
    volumes.sort();
    return QStringLiteral("%1 is a physical volume of the active volume group %2 (%3 active; "
                          "deactivate it: vgchange -an %2)")
        .arg(node, group, volumes.join(QStringLiteral(", ")));
}

} // namespace partwise
