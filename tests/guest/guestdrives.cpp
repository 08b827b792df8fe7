#include "guestdrives.h"

#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace pwtest {

namespace {

qint64 bytesOf(const QString &size)
{
    static const QRegularExpression re(QStringLiteral("^(\\d+)([KMG]?)$"));
    const auto m = re.match(size);
    if (!m.hasMatch())
        return 0;
    const int shift = QStringLiteral(" KMG").indexOf(m.captured(2).isEmpty() ? QStringLiteral(" ")
                                                                             : m.captured(2));
    return m.captured(1).toLongLong() << (10 * shift);
}

// Serial -> node, from lsblk's reading of udev's database and sysfs.
QHash<QString, QString> nodesBySerial(QString *error)
{
    const ToolResult r =
        runTool(QStringLiteral("lsblk"), {QStringLiteral("-d"), QStringLiteral("-J"),
                                          QStringLiteral("-o"), QStringLiteral("PATH,SERIAL")});
    QHash<QString, QString> out;
    if (!r.ok()) {
        *error = r.describe();
        return out;
    }
    const QJsonArray devices =
        QJsonDocument::fromJson(r.out).object().value(QStringLiteral("blockdevices")).toArray();
    for (const QJsonValue &d : devices)
        out.insert(d[QStringLiteral("serial")].toString().trimmed(),
                   d[QStringLiteral("path")].toString());
    return out;
}

} // namespace

QString partitionNode(const QString &disk, int n)
{
    const bool digitLast = !disk.isEmpty() && disk.back().isDigit();
    return disk + (digitLast ? QStringLiteral("p") : QString()) + QString::number(n);
}

QString GuestDrive::partition(int n) const
{
    return partitionNode(node, n);
}

QList<GuestDrive> guestDrives(QString *error)
{
    const QString spec = qEnvironmentVariable("PW_GUEST_DRIVES");
    QFile file(spec);
    if (spec.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("not in a test guest (PW_GUEST_DRIVES: '%1')").arg(spec);
        return {};
    }
    settleUdev();
    const QHash<QString, QString> nodes = nodesBySerial(error);
    QList<GuestDrive> out;
    for (const QByteArray &raw : file.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList f = line.split(QRegularExpression(QStringLiteral("\\s+")));
        if (f.size() != 7) {
            *error = QStringLiteral("drives.conf: bad line '%1'").arg(line);
            return {};
        }
        GuestDrive d{f[0], f[1], bytesOf(f[2]), f[3].toInt(), f[4].toInt(), f[5], f[6], {}};
        d.node = nodes.value(d.serial);
        if (d.node.isEmpty()) {
            *error = QStringLiteral("no drive with serial %1 in the guest").arg(d.serial);
            return {};
        }
        out << d;
    }
    return out;
}

GuestDrive guestDrive(const QList<GuestDrive> &drives, const QString &name)
{
    for (const GuestDrive &d : drives)
        if (d.name == name)
            return d;
    return {};
}

void settleUdev()
{
    runTool(QStringLiteral("udevadm"),
            {QStringLiteral("settle"), QStringLiteral("-t"), QStringLiteral("120")});
}

QStringList mountsOf(const QString &diskNode)
{
    QFile mounts(QStringLiteral("/proc/self/mounts"));
    QStringList out;
    if (!mounts.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray &line : mounts.readAll().split('\n')) {
        const QList<QByteArray> f = line.split(' ');
        if (f.size() > 1 && QString::fromUtf8(f[0]).startsWith(diskNode))
            out << QString::fromUtf8(f[0] + ' ' + f[1]);
    }
    out.sort();
    return out;
}

} // namespace pwtest
