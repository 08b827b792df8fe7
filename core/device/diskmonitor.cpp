#include "device/diskmonitor.h"

#include "device/diskenumerator.h"

#include <QDir>
#include <QFile>

#include <cerrno>

#include <libudev.h>

namespace partwise {

namespace {

QString text(const char *value)
{
    return value ? QString::fromUtf8(value) : QString();
}

QString nodeOf(udev_device *device)
{
    const QString node = text(udev_device_get_devnode(device));
    return node.isEmpty() ? QStringLiteral("/dev/") + text(udev_device_get_sysname(device)) : node;
}

qint64 sizeOf(udev_device *device)
{
    // sysfs counts 512-byte units whatever the logical sector size.
    return text(udev_device_get_sysattr_value(device, "size")).toLongLong() * 512;
}

bool hasProperty(udev_device *device, const char *name)
{
    return text(udev_device_get_property_value(device, name)) == QLatin1String("1");
}

QString changeReason(udev_device *device)
{
    if (hasProperty(device, "RESIZE"))
        return QStringLiteral("its size changed");
    if (hasProperty(device, "DISK_MEDIA_CHANGE"))
        return QStringLiteral("its medium changed");
    return QStringLiteral("the kernel reported a change");
}

} // namespace

std::unique_ptr<DiskMonitor> DiskMonitor::start(QString *error)
{
    return start(udevRuns() ? Source::Udev : Source::Kernel, error);
}

std::unique_ptr<DiskMonitor> DiskMonitor::start(Source source, QString *error)
{
    udev *context = udev_new();
    if (!context) {
        *error = QStringLiteral("libudev could not start: %1").arg(qt_error_string(errno));
        return nullptr;
    }
    udev_monitor *monitor =
        udev_monitor_new_from_netlink(context, source == Source::Udev ? "udev" : "kernel");
    const int failure = errno;
    if (!monitor) {
        udev_unref(context);
        *error = QStringLiteral("Cannot listen to the kernel's device events: %1")
                     .arg(qt_error_string(failure));
        return nullptr;
    }
    std::unique_ptr<DiskMonitor> result(new DiskMonitor(context, monitor, source));
    const int filtered = udev_monitor_filter_add_match_subsystem_devtype(monitor, "block", nullptr);
    const int enabled = filtered < 0 ? filtered : udev_monitor_enable_receiving(monitor);
    if (enabled < 0) {
        *error = QStringLiteral("Cannot listen to the kernel's device events: %1")
                     .arg(qt_error_string(-enabled));
        return nullptr;
    }
    // Listed after listening starts, so a disk that comes in between is not missed.
    for (const QString &path : listDisks())
        result->m_disks.insert(path);
    return result;
}

DiskMonitor::DiskMonitor(udev *context, udev_monitor *monitor, Source source)
    : m_udev(context), m_monitor(monitor), m_source(source)
{
}

DiskMonitor::~DiskMonitor()
{
    udev_monitor_unref(m_monitor);
    udev_unref(m_udev);
}

bool DiskMonitor::udevRuns()
{
    // Its control socket outlives a udevd that was stopped, and only root may connect to it: a
    // udevd process this namespace sees is the answer anyone can read.
    const QDir proc(QStringLiteral("/proc"));
    for (const QString &pid : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (!pid.front().isDigit())
            continue;
        QFile comm(proc.filePath(pid + QStringLiteral("/comm")));
        if (!comm.open(QIODevice::ReadOnly))
            continue;
        const QByteArray name = comm.readAll().trimmed();
        if (name == "systemd-udevd" || name == "udevd")
            return true;
    }
    return false;
}

int DiskMonitor::fd() const
{
    return udev_monitor_get_fd(m_monitor);
}

QList<DiskEvent> DiskMonitor::receive()
{
    QList<DiskEvent> events;
    // The socket is non-blocking: null once nothing waits.
    while (udev_device *device = udev_monitor_receive_device(m_monitor)) {
        take(device, &events);
        udev_device_unref(device);
    }
    return events;
}

void DiskMonitor::take(udev_device *device, QList<DiskEvent> *events)
{
    if (isIgnoredDiskName(text(udev_device_get_sysname(device))))
        return;
    const QString action = text(udev_device_get_action(device));
    const QString type = text(udev_device_get_devtype(device));
    if (type == QLatin1String("disk"))
        takeDisk(device, action, events);
    else if (type == QLatin1String("partition"))
        takePartition(device, action, events);
}

void DiskMonitor::takeDisk(udev_device *device, const QString &action, QList<DiskEvent> *events)
{
    const QString path = nodeOf(device);
    const bool listed = m_disks.contains(path);
    const qint64 size = action == QLatin1String("remove") ? 0 : sizeOf(device);
    if (size > 0 && !listed) {
        m_disks.insert(path);
        events->append({DiskEvent::Kind::Added, path, size, QStringLiteral("it appeared")});
    } else if (size > 0) {
        events->append({DiskEvent::Kind::Changed, path, size, changeReason(device)});
    } else if (listed) {
        // Unplugged, a loop device let go, a medium taken out: nothing left to partition.
        m_disks.remove(path);
        events->append({DiskEvent::Kind::Removed, path, 0,
                        action == QLatin1String("remove") ? QStringLiteral("it was removed")
                                                          : QStringLiteral("it became empty")});
    }
}

void DiskMonitor::takePartition(udev_device *device, const QString &action,
                                QList<DiskEvent> *events)
{
    udev_device *disk = udev_device_get_parent_with_subsystem_devtype(device, "block", "disk");
    if (!disk)
        return;
    const QString path = nodeOf(disk);
    if (!m_disks.contains(path))
        return;
    const QString name = text(udev_device_get_sysname(device));
    const QString what = action == QLatin1String("add")      ? QStringLiteral("appeared")
                         : action == QLatin1String("remove") ? QStringLiteral("went away")
                                                             : QStringLiteral("changed");
    events->append({DiskEvent::Kind::Changed, path, sizeOf(disk),
                    QStringLiteral("partition %1 %2").arg(name, what)});
}

QString diskMonitorSourceName(DiskMonitor::Source source)
{
    return source == DiskMonitor::Source::Udev ? QStringLiteral("udev") : QStringLiteral("kernel");
}

} // namespace partwise
