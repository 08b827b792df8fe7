#pragma once

#include "device/diskevent.h"

#include <QObject>

#include <memory>

namespace partwise {
class DiskMonitor;
}
class QSocketNotifier;

// Where the window hears of disks plugged in, removed or changed (MainWindow::followDiskEvents).
// Tests drive it by hand; MonitoredDiskEvents is the kernel's.
class DiskEventSource : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

signals:
    void diskEvent(const partwise::DiskEvent &event);
};

// The kernel's events, from core's DiskMonitor (libudev), read on the GUI thread when its
// socket is readable: receiving is a non-blocking read of a few queued messages.
class MonitoredDiskEvents : public DiskEventSource
{
    Q_OBJECT

public:
    // Null, with `error` saying why, when the events cannot be had.
    static MonitoredDiskEvents *start(QObject *parent, QString *error);
    ~MonitoredDiskEvents() override;

private:
    MonitoredDiskEvents(std::unique_ptr<partwise::DiskMonitor> monitor, QObject *parent);

    std::unique_ptr<partwise::DiskMonitor> m_monitor;
    QSocketNotifier *m_notifier = nullptr;
};

Q_DECLARE_METATYPE(partwise::DiskEvent)
