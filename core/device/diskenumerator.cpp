#include "device/diskenumerator.h"

#include "table/partedsession.h"

#include <QRegularExpression>

#include <parted/parted.h>

namespace {

bool isIgnoredDevice(const QString &path)
{
    static const QRegularExpression ignored(QStringLiteral("^/dev/(z?ram)[0-9]+$"));
    return ignored.match(path).hasMatch();
}

} // namespace

QStringList listDisks()
{
    PartedSession session;
    ped_device_probe_all();
    QStringList paths;
    for (PedDevice *dev = ped_device_get_next(nullptr); dev; dev = ped_device_get_next(dev)) {
        const QString path = QString::fromLocal8Bit(dev->path);
        if (!isIgnoredDevice(path))
            paths << path;
    }
    // Forget the cached devices so later reads see fresh sizes and tables.
    ped_device_free_all();
    paths.sort();
    return paths;
}
