#include "diskeventsource.h"

#include "device/diskmonitor.h"

#include <QSocketNotifier>

using namespace partwise;

MonitoredDiskEvents *MonitoredDiskEvents::start(QObject *parent, QString *error)
{
    std::unique_ptr<DiskMonitor> monitor = DiskMonitor::start(error);
    return monitor ? new MonitoredDiskEvents(std::move(monitor), parent) : nullptr;
}

MonitoredDiskEvents::MonitoredDiskEvents(std::unique_ptr<DiskMonitor> monitor, QObject *parent)
    : DiskEventSource(parent), m_monitor(std::move(monitor))
{
    qRegisterMetaType<DiskEvent>();
    m_notifier = new QSocketNotifier(m_monitor->fd(), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] {
        for (const DiskEvent &event : m_monitor->receive())
            emit diskEvent(event);
    });
}

MonitoredDiskEvents::~MonitoredDiskEvents() = default;
