#include "device/kernelholder.h"

#include "device/sysfsline.h"

#include <QDir>
#include <QFileInfo>

namespace partwise {

namespace {

QString blockFolder(const QString &holder)
{
    return QStringLiteral("/sys/class/block/") + holder;
}

QString describeDeviceMapper(const QString &holder, const QString &name, const QString &uuid)
{
    if (uuid.startsWith(QLatin1String("CRYPT-")))
        return QStringLiteral("the open encryption mapping %1 (/dev/mapper/%1, %2; close it: "
                              "cryptsetup close %1)")
            .arg(name, holder);
    QString vg, lv;
    if (uuid.startsWith(QLatin1String("LVM-")) && splitLvmName(name, &vg, &lv))
        return QStringLiteral("the active LVM logical volume %1/%2 (%3; deactivate its volume "
                              "group: vgchange -an %1)")
            .arg(vg, lv, holder);
    if (uuid.startsWith(QLatin1String("mpath-")))
        return QStringLiteral("the multipath device %1 (%2)").arg(name, holder);
    return QStringLiteral("the device-mapper device %1 (%2; dmsetup remove %1)").arg(name, holder);
}

// /dev/md/NAME links to the array's node when mdadm assembled it by name.
QString mdArrayName(const QString &holder)
{
    const QDir dir(QStringLiteral("/dev/md"));
    for (const QFileInfo &link :
         dir.entryInfoList(QDir::System | QDir::Files | QDir::NoDotAndDotDot))
        if (link.isSymLink() && QFileInfo(link.symLinkTarget()).fileName() == holder)
            return link.fileName();
    return {};
}

} // namespace

bool splitLvmName(const QString &dmName, QString *vg, QString *lv)
{
    for (qsizetype i = 0; i + 1 < dmName.size(); ++i) {
        if (dmName[i] != QLatin1Char('-'))
            continue;
        if (dmName[i + 1] == QLatin1Char('-')) {
            ++i; // a '-' of a name, doubled
            continue;
        }
        *vg = dmName.left(i).replace(QStringLiteral("--"), QStringLiteral("-"));
        *lv = dmName.mid(i + 1).replace(QStringLiteral("--"), QStringLiteral("-"));
        return !vg->isEmpty() && !lv->isEmpty();
    }
    return false;
}

QStringList kernelHoldersOf(const QString &name)
{
    return QDir(blockFolder(name) + QStringLiteral("/holders"))
        .entryList(QDir::NoDotAndDotDot | QDir::AllEntries);
}

bool kernelHolderIsReadOnly(const QString &holder)
{
    return sysfsLine(blockFolder(holder) + QStringLiteral("/ro")) == QLatin1String("1");
}

QString describeKernelHolder(const QString &holder)
{
    const QString folder = blockFolder(holder);
    const QString dmName = sysfsLine(folder + QStringLiteral("/dm/name"));
    if (!dmName.isEmpty())
        return describeDeviceMapper(holder, dmName, sysfsLine(folder + QStringLiteral("/dm/uuid")));
    if (QFileInfo::exists(folder + QStringLiteral("/md"))) {
        const QString name = mdArrayName(holder);
        return QStringLiteral("the RAID array %1%2 (stop it: mdadm --stop /dev/%1)")
            .arg(holder, name.isEmpty() ? QString() : QStringLiteral(", /dev/md/") + name);
    }
    if (QFileInfo::exists(folder + QStringLiteral("/bcache")))
        return QStringLiteral("the bcache device %1").arg(holder);
    return holder;
}

} // namespace partwise
